"""Avatars: a built-in one chosen from the catalog, or a picture the player uploaded.

- ``catalog``: the built-in avatars (and the bots' own), served as static files;
- ``pictures``: an upload decoded, checked and drawn again as a fixed-size JPEG (pure Pillow);
- ``services``: the writes (choose, upload, remove, erase), storage I/O outside transactions;
- ``selectors``: an avatar as every answer shows it;
- ``serving``: the uploaded pictures served from the default storage when nothing else does.
"""
