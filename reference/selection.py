"""Selection: a SelectionString given on MQOPEN makes the handle's gets see only the messages whose properties
satisfy it.

Sources: "Selectors", "Message selector syntax" and "Selection behavior" (clauses.yaml documents `selectors`,
`selector-syntax`, `selection-behavior`), and "2459 MQRC_SELECTOR_SYNTAX_ERROR". The syntax is a subset of SQL92's
conditional expressions: literals (strings in single quotes with '' for a quote, exact numbers in decimal, octal
after a leading 0 and hexadecimal after 0x, approximate numbers, TRUE and FALSE), property names, parentheses,
arithmetic (+ - * / and unary signs), comparisons (= <> < <= > >=), AND, OR, NOT, BETWEEN, IN, LIKE with ESCAPE, and
IS [NOT] NULL; keywords in any case. The JMS header names IBM maps onto MQMD fields are
fixtures/tables/selector-headers.yaml.

The grammar is given to lark (a parsing library: one declared grammar, an LALR parser it builds, instead of a
parser written by hand); this module turns lark's tree into a small expression and evaluates it in SQL's logic of
three values, an absent property being NULL (selection.null-unknown). A message is selected when the expression is
TRUE.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .properties import kept_name
from .result import Result, failure

if TYPE_CHECKING:
    from lark import Lark, Token

    from .qmgr import QueueManager
    from .queue import StoredMessage

GRAMMAR = r"""
?start: or_expr
?or_expr: and_expr | or_expr _OR and_expr -> or_
?and_expr: not_expr | and_expr _AND not_expr -> and_
?not_expr: predicate | _NOT not_expr -> not_
?predicate: sum
    | sum COMPARE sum -> compare
    | sum _BETWEEN sum _AND sum -> between
    | sum _NOT _BETWEEN sum _AND sum -> not_between
    | sum _IN "(" literal ("," literal)* ")" -> in_
    | sum _NOT _IN "(" literal ("," literal)* ")" -> not_in
    | sum _LIKE STRING (_ESCAPE STRING)? -> like
    | sum _NOT _LIKE STRING (_ESCAPE STRING)? -> not_like
    | sum _IS _NULL -> is_null
    | sum _IS _NOT _NULL -> is_not_null
?sum: product | sum ADD product -> arithmetic
?product: unary | product MUL unary -> arithmetic
?unary: atom | ADD unary -> sign
?atom: literal | NAME -> name | "(" or_expr ")"
?literal: STRING -> string | NUMBER -> number | _TRUE -> true | _FALSE -> false

COMPARE: "<>" | "<=" | ">=" | "=" | "<" | ">"
ADD: "+" | "-"
MUL: "*" | "/"
STRING: /'(?:[^']|'')*'/
NUMBER.2: /0[xX][0-9a-fA-F]+/ | /(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?/ | /\d+[eE][+-]?\d+[fFdD]?/ | /\d+[lL]?/
_OR.3: /or\b/i
_AND.3: /and\b/i
_NOT.3: /not\b/i
_BETWEEN.3: /between\b/i
_IN.3: /in\b/i
_LIKE.3: /like\b/i
_ESCAPE.3: /escape\b/i
_IS.3: /is\b/i
_NULL.3: /null\b/i
_TRUE.3: /true\b/i
_FALSE.3: /false\b/i
NAME: /(?:[^\W\d]|\$)(?:\w|\$)*(?:\.(?:[^\W\d]|\$)(?:\w|\$)*)*/
%ignore /\s+/
"""


KEYWORDS = frozenset({"NULL", "TRUE", "FALSE", "NOT", "AND", "OR", "BETWEEN", "LIKE", "IN", "IS", "ESCAPE"})


class SelectorSyntaxError(ValueError):
    """A selection string that is not a selector (selection.syntax-error)."""


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The selector parser (built once: lark compiles the grammar into LALR tables). lark is imported here, on the
    first selector, so that the model runs without it where no selector is ever given (a campaign's executors
    import only what the suite's zip and pyarrow/pyyaml give them)."""
    from lark import Lark

    return Lark(GRAMMAR, parser="lalr")


def _number(text: str) -> int | float:
    lower = text.lower()
    if lower.startswith("0x"):
        return int(lower, 16)
    if any(c in lower for c in ".e") or lower.endswith(("f", "d")) and not lower.startswith("0x"):
        return float(lower.rstrip("fd"))
    digits = lower.rstrip("l")
    if len(digits) > 1 and digits.startswith("0"):
        try:
            return int(digits, 8)  # a leading zero starts an octal number: 09 is an error (selection.literals)
        except ValueError:
            raise SelectorSyntaxError(f"{text} is not an octal number") from None
    return int(digits)


class _Build:
    """lark's tree as nested tuples: (op, operands...), one method per rule alias, given the rule's children."""

    def convert(self, node: Any) -> Any:
        """A node of lark's tree (a Tree: its alias and children; a Token: kept) converted bottom-up."""
        children = getattr(node, "children", None)
        if children is None:
            return node
        return getattr(self, node.data)(*(self.convert(child) for child in children))

    def string(self, token: Token):
        return ("lit", token[1:-1].replace("''", "'"))

    def number(self, token: Token):
        return ("lit", _number(str(token)))

    def true(self):
        return ("lit", True)

    def false(self):
        return ("lit", False)

    def name(self, token: Token):
        if str(token).upper() in KEYWORDS:
            raise SelectorSyntaxError(f"{token} is a keyword, not a property name")
        return ("name", str(token))

    def or_(self, left, right):
        return ("or", left, right)

    def and_(self, left, right):
        return ("and", left, right)

    def not_(self, operand):
        return ("not", operand)

    def compare(self, left, op, right):
        return ("cmp", str(op), left, right)

    def arithmetic(self, left, op, right):
        return ("arith", str(op), left, right)

    def sign(self, op, operand):
        return ("neg", operand) if str(op) == "-" else ("pos", operand)

    def between(self, value, low, high):
        return ("between", value, low, high)

    def not_between(self, value, low, high):
        return ("not", ("between", value, low, high))

    def in_(self, name, *items):
        return ("in", _name(name), [item[1] for item in items])

    def not_in(self, name, *items):
        return ("not", self.in_(name, *items))

    def like(self, name, pattern, escape=None):
        return ("like", _name(name), _pattern(pattern, escape))

    def not_like(self, name, pattern, escape=None):
        return ("not", self.like(name, pattern, escape))

    def is_null(self, name):
        return ("null", _name(name))

    def is_not_null(self, name):
        return ("not", ("null", _name(name)))


def _name(operand: tuple) -> tuple:
    """The operand of IN, LIKE and IS [NOT] NULL, which must be a property name (selection.in, selection.like,
    selection.is-null)."""
    if operand[0] != "name":
        raise SelectorSyntaxError("IN, LIKE and IS NULL apply to a property name")
    return operand


def _pattern(pattern: Token, escape: Token | None) -> re.Pattern:
    """A LIKE pattern as a regular expression: _ one character, % any characters, each literal after the escape
    character (selection.like)."""
    text = str(pattern)[1:-1].replace("''", "'")
    mark = None
    if escape is not None:
        mark = str(escape)[1:-1].replace("''", "'")
        if len(mark) != 1:
            raise SelectorSyntaxError("ESCAPE takes one character")
    out, index = [], 0
    while index < len(text):
        char = text[index]
        if mark is not None and char == mark:
            if index + 1 >= len(text):
                raise SelectorSyntaxError("an escape character ends the LIKE pattern")
            out.append(re.escape(text[index + 1]))
            index += 2
            continue
        out.append(".*" if char == "%" else "." if char == "_" else re.escape(char))
        index += 1
    return re.compile("".join(out), re.DOTALL)


def parse(text: str) -> tuple:
    """The expression of a selection string, or :class:`SelectorSyntaxError` (selection.syntax-error)."""
    from lark.exceptions import LarkError

    try:
        tree = parser().parse(text)
    except LarkError as exc:
        raise SelectorSyntaxError(" ".join(str(exc).split())[:200]) from None
    return _Build().convert(tree)


# -- evaluation in three-valued logic (None is unknown) -----------------------------------------------------

def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
_ARITH = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv}


def _compare(op: str, left: Any, right: Any) -> bool | None:
    """A comparison: unknown when either side is NULL; numbers compare by value; strings, booleans and byte strings
    only for = and <>; values of different types are not equal, so compare FALSE (selection.comparison)."""
    if left is None or right is None:
        return None
    if _is_number(left) and _is_number(right):
        return left != right if op == "<>" else (left == right if op == "=" else _ORDER[op](left, right))
    if type(left) is not type(right) or op not in ("=", "<>"):
        return False
    return (left == right) if op == "=" else (left != right)


def evaluate(node: tuple, lookup: Callable[[str], Any]) -> Any:
    """The value of an expression for a message whose properties ``lookup`` gives by name (None when absent).

    Clauses: selection.null-unknown, selection.comparison, selection.arithmetic, selection.between, selection.in,
    selection.like, selection.is-null, selection.logic.
    """
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "name":
        return lookup(node[1])
    if kind == "and":
        left = evaluate(node[1], lookup)
        if left is False:
            return False
        right = evaluate(node[2], lookup)
        if right is False:
            return False
        return True if left is True and right is True else None
    if kind == "or":
        left = evaluate(node[1], lookup)
        if left is True:
            return True
        right = evaluate(node[2], lookup)
        if right is True:
            return True
        return False if left is False and right is False else None
    if kind == "not":
        value = evaluate(node[1], lookup)
        return None if value is None else (not value if isinstance(value, bool) else None)
    if kind == "cmp":
        return _compare(node[1], evaluate(node[2], lookup), evaluate(node[3], lookup))
    if kind == "arith":
        left, right = evaluate(node[2], lookup), evaluate(node[3], lookup)
        if not (_is_number(left) and _is_number(right)):
            return None
        if node[1] == "/" and right == 0:
            return None
        value = _ARITH[node[1]](left, right)
        return value if node[1] != "/" or isinstance(left, float) or isinstance(right, float) else left / right
    if kind in ("neg", "pos"):
        value = evaluate(node[1], lookup)
        return (-value if kind == "neg" else value) if _is_number(value) else None
    if kind == "between":
        value, low, high = (evaluate(part, lookup) for part in node[1:])
        first, second = _compare(">=", value, low), _compare("<=", value, high)
        if first is False or second is False:
            return False
        return True if first and second else None
    if kind == "in":
        value = evaluate(node[1], lookup)
        if value is None:
            return None
        return isinstance(value, str) and value in node[2]
    if kind == "like":
        value = evaluate(node[1], lookup)
        if value is None:
            return None
        return isinstance(value, str) and node[2].fullmatch(value) is not None
    if kind == "null":
        return evaluate(node[1], lookup) is None
    raise ValueError(f"unknown selector node {kind!r}")


def names_in(node: Any) -> list[str]:
    """The property names an expression reads."""
    if isinstance(node, tuple):
        if node[0] == "name":
            return [node[1]]
        return [name for part in node[1:] for name in names_in(part)]
    return []


# -- the header names ---------------------------------------------------------------------------------------

def header_value(qm: QueueManager, name: str, message: StoredMessage) -> tuple[bool, Any]:
    """(True, value) when ``name`` is a JMS or Root.MQMD name of fixtures/tables/selector-headers.yaml, read from the
    message's MQMD (selection.headers.*); (False, None) otherwise."""
    row = qm.spec["selection.headers"].lookup(name=name)
    if row is None:
        return False, None
    value = getattr(message.md, row.then["field"])
    how = row.then.get("as", "value")
    if how == "text":
        value = value.rstrip(" ") if isinstance(value, str) else value
    elif how == "delivery-mode":
        value = "PERSISTENT" if value == 1 else "NON_PERSISTENT"
    return True, value


@dataclass(frozen=True)
class Selection:
    """A handle's parsed SelectionString; ``excludes`` is the filter MQGET passes over messages with. Two are equal
    when their text is (the queue manager's value is its calls)."""

    text: str
    expression: tuple = field(compare=False)
    qm: Any = field(compare=False, repr=False)

    def selects(self, message: StoredMessage) -> bool:
        """Whether the message's properties satisfy the selector (selection.selects-true-only)."""
        found = {p.name: p.value for p in (message.properties or ())}

        def lookup(name: str) -> Any:
            known, value = header_value(self.qm, name, message)
            if known:
                return value
            return found.get(kept_name(name))

        return evaluate(self.expression, lookup) is True

    def excludes(self, message: StoredMessage) -> bool:
        return not self.selects(message)

    def clauses(self) -> list[str]:
        """The clauses an MQGET through this selection applies: the selector's operators and literals, the
        MQMD fields it names (selection.headers.*), and selection.selects-true-only."""
        found = [OPERATOR_CLAUSES[kind] for kind in kinds_in(self.expression) if kind in OPERATOR_CLAUSES]
        table = self.qm.spec["selection.headers"]
        found += [row.id for row in (table.lookup(name=name) for name in names_in(self.expression)) if row]
        return [*dict.fromkeys(found), "selection.selects-true-only"]


# The clause of each kind of node of a parsed selector (selection.*).
OPERATOR_CLAUSES = {"lit": "selection.literals", "cmp": "selection.comparison", "arith": "selection.arithmetic",
                    "neg": "selection.arithmetic", "pos": "selection.arithmetic", "between": "selection.between",
                    "in": "selection.in", "like": "selection.like", "null": "selection.is-null",
                    "and": "selection.logic", "or": "selection.logic", "not": "selection.logic"}


def kinds_in(node: tuple) -> list[str]:
    """The kinds of the nodes of a parsed selector, outermost first (IN's list and LIKE's pattern are literals)."""
    kind = node[0]
    if kind in ("lit", "name"):
        return [kind]
    if kind in ("in", "like"):
        return [kind, "lit", *kinds_in(node[1])]
    parts = node[2:] if kind in ("cmp", "arith") else node[1:]
    return [kind, *(k for part in parts for k in kinds_in(part))]


def open_with_selection(qm: QueueManager, text: str, do_open: Callable[[], Result]) -> Result:
    """An MQOPEN (``do_open``) with a SelectionString: a string that is no selector fails the open with
    MQRC_SELECTOR_SYNTAX_ERROR, and one that is FALSE or unknown before any property is read with
    MQRC_SELECTOR_ALWAYS_FALSE, each before anything is opened; a blank one selects nothing out
    (selection.syntax-error, selection.always-false, selection.empty). The handle's gets then pass over the
    messages it does not select (selection.filters-gets)."""
    if not text.strip():
        result = do_open()
        result.clauses.append("selection.empty")
        return result
    try:
        expression = parse(text)
    except SelectorSyntaxError:
        return failure("MQRC_SELECTOR_SYNTAX_ERROR", "selection.syntax-error")
    if not names_in(expression) and evaluate(expression, lambda name: None) is not True:
        return failure("MQRC_SELECTOR_ALWAYS_FALSE", "selection.always-false")
    result = do_open()
    if not result.failed and result.hobj is not None:
        qm.selections[result.hobj] = Selection(text, expression, qm)
        result.clauses.append("selection.filters-gets")
    return result
