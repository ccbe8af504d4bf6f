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

import math
import operator
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .patterns import ANY, ANY_ONE, Pattern, compile_tokens
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


# IBM's limits, checked before the text is parsed: a SelectionString longer than MQ_SELECTOR_LENGTH bytes is
# refused with MQRC_SELECTION_STRING_ERROR (selection.string-too-long); an exact literal must fit Java's long and an
# approximate one Java's double (selection.literals), which also keeps a 5,000-digit literal from reaching int().
MAX_SELECTOR_BYTES = 10240  # MQ_SELECTOR_LENGTH
_LONG_DIGITS = 20  # no literal of more digits fits 64 bits, in any base IBM allows (octal: 22 digits, checked after)
_LONG_RANGE = range(-(1 << 63), 1 << 64)  # a decimal up to 2**63 (negated by a sign) or a 64-bit pattern in hex


def _number(text: str) -> int | float:
    lower = text.lower()
    if lower.startswith("0x"):
        digits = lower[2:].lstrip("0")
        if len(digits) > 16:
            raise SelectorSyntaxError(f"{text[:40]} is larger than a 64-bit number")
        return int(lower, 16)
    if any(c in lower for c in ".e") or lower.endswith(("f", "d")):
        value = float(lower.rstrip("fd"))
        if value in (math.inf, -math.inf):
            raise SelectorSyntaxError(f"{text[:40]} is outside the range of a double")
        return value
    digits = lower.rstrip("l")
    if len(digits.lstrip("0")) > _LONG_DIGITS + 2:
        raise SelectorSyntaxError(f"{text[:40]}... is larger than a 64-bit number")
    if len(digits) > 1 and digits.startswith("0"):
        try:
            value = int(digits, 8)  # a leading zero starts an octal number: 09 is an error (selection.literals)
        except ValueError:
            raise SelectorSyntaxError(f"{text} is not an octal number") from None
    else:
        value = int(digits)
    if value not in _LONG_RANGE or not digits.startswith("0") and value > 1 << 63:
        raise SelectorSyntaxError(f"{text[:40]} is larger than a 64-bit number")
    return value


def _string(token: Token) -> str:
    return str(token)[1:-1].replace("''", "'")


def _literal(tree: Any) -> Any:
    """The value of a literal of lark's tree (an IN list's item)."""
    kind = tree.data
    if kind == "string":
        return _string(tree.children[0])
    if kind == "number":
        return _number(str(tree.children[0]))
    return kind == "true"


def _pattern(pattern: Token, escape: Token | None) -> Pattern:
    """A LIKE pattern as an automaton (reference/patterns.py): _ one character, % any characters, each character
    after the escape character itself (selection.like)."""
    text = _string(pattern)
    mark = None
    if escape is not None:
        mark = _string(escape)
        if len(mark) != 1:
            raise SelectorSyntaxError("ESCAPE takes one character")
    tokens: list[object] = []
    index = 0
    while index < len(text):
        char = text[index]
        if mark is not None and char == mark:
            if index + 1 >= len(text):
                raise SelectorSyntaxError("an escape character ends the LIKE pattern")
            tokens.append(text[index + 1])
            index += 2
            continue
        tokens.append(ANY if char == "%" else ANY_ONE if char == "_" else char)
        index += 1
    return compile_tokens(tokens)


# Each rule alias of the grammar: the instruction it leaves after its operands' (None: it leaves none).
_INSTRUCTIONS = {"or_": ("or",), "and_": ("and",), "not_": ("not",), "between": ("between",),
                 "not_between": ("between",), "is_null": ("null",), "is_not_null": ("null",)}
_NEGATED = frozenset({"not_between", "not_in", "not_like", "is_not_null"})


def _emit(node: Any, out: list[tuple]) -> None:
    """The instructions a node of lark's tree leaves once its operands are on the stack."""
    kind, children = node.data, node.children
    if kind in _INSTRUCTIONS:
        out.append(_INSTRUCTIONS[kind])
    elif kind in ("string", "number", "true", "false"):
        out.append(("lit", _literal(node)))
    elif kind == "name":
        token = str(children[0])
        if token.upper() in KEYWORDS:
            raise SelectorSyntaxError(f"{token} is a keyword, not a property name")
        out.append(("name", token))
    elif kind in ("compare", "arithmetic"):
        out.append(("cmp" if kind == "compare" else "arith", str(children[1])))
    elif kind == "sign":
        if str(children[0]) == "-":
            out.append(("neg",))
        else:
            out.append(("pos",))
    elif kind in ("in_", "not_in"):
        out.append(("in", [_literal(item) for item in children[1:]]))
    elif kind in ("like", "not_like"):
        out.append(("like", _pattern(children[1], children[2] if len(children) > 2 else None)))
    else:
        raise SelectorSyntaxError(f"unknown selector rule {kind}")
    if kind in _NEGATED:
        out.append(("not",))


def _operands(node: Any) -> list[Any]:
    """The children of a node of lark's tree that are expressions (its tokens and IN's literals are not)."""
    if node.data in ("in_", "not_in", "like", "not_like", "is_null", "is_not_null"):
        operand = node.children[0]
        if getattr(operand, "data", None) != "name":  # (selection.in, selection.like, selection.is-null)
            raise SelectorSyntaxError("IN, LIKE and IS NULL apply to a property name")
        return [operand]
    if node.data in ("string", "number", "true", "false"):
        return []
    return [child for child in node.children if hasattr(child, "data")]


def _flatten(tree: Any) -> tuple[tuple, ...]:
    """lark's tree as a program in postfix order, walked with a stack of its own: a 500-term OR chain or 600 NOTs
    nest as deep, and no step here or in :func:`evaluate` recurses (hostile input, issue 36)."""
    out: list[tuple] = []
    stack: list[tuple[Any, bool]] = [(tree, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            _emit(node, out)
            continue
        stack.append((node, True))
        stack.extend((child, False) for child in reversed(_operands(node)))
    return tuple(out)


def parse(text: str) -> tuple[tuple, ...]:
    """The expression of a selection string (a program in postfix order, :func:`evaluate`), or
    :class:`SelectorSyntaxError` (selection.syntax-error, selection.literals)."""
    from lark.exceptions import LarkError

    try:
        tree = parser().parse(text)
    except LarkError as exc:
        raise SelectorSyntaxError(" ".join(str(exc).split())[:200]) from None
    return _flatten(tree)


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


def _arithmetic(op: str, left: Any, right: Any) -> Any:
    """+ - * / of two numbers; unknown for anything else, a division by zero, or a result no double holds (an
    integer too large to mix with a double is unknown too, never Python's OverflowError) (selection.arithmetic)."""
    if not (_is_number(left) and _is_number(right)) or op == "/" and right == 0:
        return None
    try:
        value = _ARITH[op](left, right)
    except OverflowError:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _and(left: Any, right: Any) -> bool | None:
    if left is False or right is False:
        return False
    return True if left is True and right is True else None


def _or(left: Any, right: Any) -> bool | None:
    if left is True or right is True:
        return True
    return False if left is False and right is False else None


def evaluate(program: tuple[tuple, ...], lookup: Callable[[str], Any]) -> Any:
    """The value of an expression (:func:`parse`) for a message whose properties ``lookup`` gives by name (None
    when absent): one pass over its postfix program with a stack of values, whatever its depth.

    Clauses: selection.null-unknown, selection.comparison, selection.arithmetic, selection.between, selection.in,
    selection.like, selection.is-null, selection.logic.
    """
    stack: list[Any] = []
    push, pop = stack.append, stack.pop
    for instruction in program:
        kind = instruction[0]
        if kind == "lit":
            push(instruction[1])
        elif kind == "name":
            push(lookup(instruction[1]))
        elif kind in ("and", "or"):
            right = pop()
            push((_and if kind == "and" else _or)(pop(), right))
        elif kind == "not":
            value = pop()
            push(not value if isinstance(value, bool) else None)
        elif kind == "cmp":
            right = pop()
            push(_compare(instruction[1], pop(), right))
        elif kind == "arith":
            right = pop()
            push(_arithmetic(instruction[1], pop(), right))
        elif kind in ("neg", "pos"):
            value = pop()
            push((-value if kind == "neg" else value) if _is_number(value) else None)
        elif kind == "between":
            high, low = pop(), pop()
            value = pop()
            push(_and(_compare(">=", value, low), _compare("<=", value, high)))
        elif kind == "in":
            value = pop()
            push(None if value is None else isinstance(value, str) and value in instruction[1])
        elif kind == "like":
            value = pop()
            push(None if value is None else isinstance(value, str) and instruction[1].fullmatch(value))
        elif kind == "null":
            push(pop() is None)
        else:
            raise ValueError(f"unknown selector instruction {kind!r}")
    return stack[-1]


def names_in(program: tuple[tuple, ...]) -> list[str]:
    """The property names an expression reads."""
    return [instruction[1] for instruction in program if instruction[0] == "name"]


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
    expression: tuple[tuple, ...] = field(compare=False)  # the postfix program parse() gives
    qm: Any = field(compare=False, repr=False)

    def selects(self, message: StoredMessage, absent: set[str] | None = None) -> bool:
        """Whether the message's properties satisfy the selector (selection.selects-true-only). The names the
        selector reads that the message has no property of (NULL: selection.null-unknown) are added to ``absent``
        when it is given."""
        found = {p.name: p.value for p in (message.properties or ())}

        def lookup(name: str) -> Any:
            known, value = header_value(self.qm, name, message)
            if known:
                return value
            kept = kept_name(name)
            if kept not in found:
                if absent is not None:
                    absent.add(name)
                return None
            return found[kept]

        return evaluate(self.expression, lookup) is True

    def excludes(self, message: StoredMessage) -> bool:
        return not self.selects(message)

    def excluder(self, absent: set[str]) -> Callable[[StoredMessage], bool]:
        """:meth:`excludes`, noting in ``absent`` the names a message passed over or taken had no property of."""
        return lambda message: not self.selects(message, absent)

    def clauses(self, absent: set[str] | frozenset[str] = frozenset()) -> list[str]:
        """The clauses an MQGET through this selection applies: the selector's operators and literals, the
        MQMD fields it names (selection.headers.*), selection.null-unknown when a message it weighed lacked a
        property it reads (``absent``), and selection.selects-true-only."""
        found = [OPERATOR_CLAUSES[kind] for kind in kinds_in(self.expression) if kind in OPERATOR_CLAUSES]
        table = self.qm.spec["selection.headers"]
        found += [row.id for row in (table.lookup(name=name) for name in names_in(self.expression)) if row]
        if absent:
            found.append("selection.null-unknown")
        return [*dict.fromkeys(found), "selection.selects-true-only"]


# The clause of each kind of node of a parsed selector (selection.*).
OPERATOR_CLAUSES = {"lit": "selection.literals", "cmp": "selection.comparison", "arith": "selection.arithmetic",
                    "neg": "selection.arithmetic", "pos": "selection.arithmetic", "between": "selection.between",
                    "in": "selection.in", "like": "selection.like", "null": "selection.is-null",
                    "and": "selection.logic", "or": "selection.logic", "not": "selection.logic"}


def kinds_in(program: tuple[tuple, ...]) -> list[str]:
    """The kinds of the instructions of a parsed selector, outermost first (IN's list and LIKE's pattern are
    literals)."""
    kinds: list[str] = []
    for instruction in reversed(program):
        kinds.append(instruction[0])
        if instruction[0] in ("in", "like"):
            kinds.append("lit")
    return kinds


def open_with_selection(qm: QueueManager, text: str, do_open: Callable[[], Result]) -> Result:
    """An MQOPEN (``do_open``) with a SelectionString: a string that is no selector fails the open with
    MQRC_SELECTOR_SYNTAX_ERROR, and one that is FALSE or unknown before any property is read with
    MQRC_SELECTOR_ALWAYS_FALSE, each before anything is opened; a blank one selects nothing out; one longer than
    MQ_SELECTOR_LENGTH fails with MQRC_SELECTION_STRING_ERROR before it is parsed (selection.syntax-error,
    selection.always-false, selection.empty, selection.string-too-long). The handle's gets then pass over the
    messages it does not select (selection.filters-gets)."""
    if not text.strip():
        result = do_open()
        result.clauses.append("selection.empty")
        return result
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SELECTOR_BYTES:
        return failure("MQRC_SELECTION_STRING_ERROR", "selection.string-too-long")
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
