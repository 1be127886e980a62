"""Players and community: ratings, leaderboards, quick play, rematch, friends, invitations,
blocks, quick chat. Sits above games (it reads and starts matches) and below moderation and
live (which report on and deliver what happens here)."""
