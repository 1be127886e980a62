"""Reads of the players app, one module per feature."""
