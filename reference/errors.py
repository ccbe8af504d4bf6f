"""Errors the model raises instead of answering: never an MQ outcome, always a limit of the model itself."""


class NotModelled(Exception):
    """The call uses behaviour the reference model does not model yet; the message names it."""
