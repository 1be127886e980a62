"""Plumbing shared by every app and owned by none: the domain error base, the problem-details
shape. It imports nothing of the project, so every layer may depend on it."""
