"""Reports, sanctions and the moderation log: what staff do to matches and accounts."""
