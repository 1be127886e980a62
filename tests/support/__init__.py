"""Plain helpers shared by the whole suite: no fixtures here (they live in tests/conftest.py),
and nothing here imports a conftest, so any test module or conftest can import any of it."""
