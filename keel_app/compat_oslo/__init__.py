"""The oslo.messaging wire format, as a pure codec: bytes in, typed values out, and back.

Nothing here opens a connection; the bridge's consumer moves the bytes and calls these.
"""
