"""Push notifications: devices, preferences, a transactional outbox and its providers."""
