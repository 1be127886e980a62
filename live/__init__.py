"""Live delivery: the WebSocket streams (Channels consumers), the events they carry, published
when a match's transaction commits, and the tickets browsers connect with."""
