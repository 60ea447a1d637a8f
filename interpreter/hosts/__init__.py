"""Hosts of the runtime: the JSON-lines server, the web page, OpenSpiel, PettingZoo, Gymnasium,
seat and terminal views.
"""
