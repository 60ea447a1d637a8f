"""Many games at once: simulation (serial and parallel), statistics, plots, scenario tests, playthroughs."""
