"""Wildcard patterns matched without backtracking: a selector's LIKE (``%`` any characters, ``_`` one), a
subscription's character-based wildcards (``*`` and ``?``) and its topic-based ones (``#`` any levels, ``+`` one).

A pattern is a list of tokens, each one symbol (a character, or a topic level), "any one symbol" or "any symbols".
It is matched as a nondeterministic automaton whose set of states is one integer, a bit for each token (the
bit-parallel simulation of Baeza-Yates and Gonnet): each symbol of the subject costs a few operations on an integer
of one bit per token, so a match takes time linear in the subject whatever the pattern, where a regular
expression with many ``.*`` backtracks for minutes (hostile input, issue 36). A pattern whose only wildcards are
"any symbols" over text is matched faster still, by finding its literal pieces in order (the leftmost find of each
piece is never wrong when every gap may hold anything).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

ANY_ONE = object()  # the token standing for exactly one symbol
ANY = object()  # the token standing for any number of symbols, none included


@dataclass(frozen=True)
class Pattern:
    """A compiled pattern: bit i+1 of each mask is token i; bit 0 is the state before any token."""

    size: int
    stars: int  # the tokens that are ANY (each loops on every symbol)
    any_one: int  # the tokens that are ANY_ONE
    symbols: dict[Hashable, int] = field(repr=False)  # symbol -> the literal tokens it matches
    pieces: tuple[str, ...] | None = None  # text between ANY tokens, when no token is ANY_ONE (the fast path)

    def fullmatch(self, subject: Sequence[Hashable]) -> bool:
        """Whether the whole ``subject`` (a string, or a sequence of topic levels) matches the pattern."""
        if self.pieces is not None and isinstance(subject, str):
            return _pieces_match(self.pieces, subject)
        state = self._closed(1)
        for symbol in subject:
            state = ((state << 1) & (self.any_one | self.symbols.get(symbol, 0))) | (state & self.stars)
            if not state:
                return False
            state = self._closed(state)
        return bool(state >> self.size & 1)

    def _closed(self, state: int) -> int:
        # An ANY token may match nothing: a state before one is also the state after it. Runs of ANY were merged
        # into one at compile time, so one step reaches every such state.
        return state | (state << 1) & self.stars


def compile_tokens(tokens: Iterable[object]) -> Pattern:
    """A pattern from its tokens: ANY, ANY_ONE, or a symbol matching itself. Consecutive ANY are one (the same
    language), which keeps the closure of a state to one step."""
    merged: list[object] = []
    for token in tokens:
        if not (token is ANY and merged and merged[-1] is ANY):
            merged.append(token)
    stars = any_one = 0
    symbols: dict[Hashable, int] = {}
    for position, token in enumerate(merged, start=1):
        bit = 1 << position
        if token is ANY:
            stars |= bit
        elif token is ANY_ONE:
            any_one |= bit
        else:
            symbols[token] = symbols.get(token, 0) | bit
    pieces = None
    if not any_one and all(token is ANY or isinstance(token, str) and len(token) == 1 for token in merged):
        pieces = tuple("".join(run) for run in _runs(merged))
    return Pattern(len(merged), stars, any_one, symbols, pieces)


def _runs(tokens: list[object]) -> list[list[str]]:
    """The characters between ANY tokens: one run more than there are ANY tokens."""
    runs: list[list[str]] = [[]]
    for token in tokens:
        if token is ANY:
            runs.append([])
        else:
            runs[-1].append(token)  # type: ignore[arg-type]
    return runs


def _pieces_match(pieces: tuple[str, ...], text: str) -> bool:
    """Whether ``text`` is pieces[0], then anything, pieces[1], ..., anything, pieces[-1]: the first piece at the
    start, the last at the end, each other at its leftmost place after the one before (str.find is linear)."""
    if len(pieces) == 1:
        return text == pieces[0]
    first, last = pieces[0], pieces[-1]
    if len(first) + len(last) > len(text) or not text.startswith(first) or not text.endswith(last):
        return False
    position, end = len(first), len(text) - len(last)
    for piece in pieces[1:-1]:
        found = text.find(piece, position, end)
        if found < 0:
            return False
        position = found + len(piece)
    return True
