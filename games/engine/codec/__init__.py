"""Every conversion between engine values and JSON-shaped dicts, one module per concern:

* ``codec.moves``: moves and projects as record-format actions, both ways;
* ``codec.record_format``: contracts, tricks, results, rounds and observations as the record
  format and the API write them;
* ``codec.snapshot``: the versioned snapshot of a whole state, for storage.

Callers import them from those modules (or from ``games.engine``, which re-exports the ones
the other apps use).
"""
