"""Playing at a table, for every front end: the I/O-free table model (``tablemodel``,
``table``), typed moves (``moveinput``), hints, sessions, saved matches, record
positions and the cheat sheet. Built on the engine and the bots; knows no terminal, no
browser and no database.
"""
