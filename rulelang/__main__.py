from rulelang.cli import main

main(prog_name="rulelang")
