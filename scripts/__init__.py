"""Developer scripts: make run's supervisor, make lint's documentation check."""
