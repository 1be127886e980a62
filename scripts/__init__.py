"""Developer scripts: make run's supervisor, make lint's source and documentation checks."""
