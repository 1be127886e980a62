"""The metrics tests use the suite's ``stream_server`` (tests/conftest.py)."""
