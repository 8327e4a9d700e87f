"""Standard mutation operators for the console's JavaScript, on tree-sitter's syntax tree.

No maintained Python tool mutates JavaScript; these are the operators Stryker (the JavaScript
mutation tool) applies by default, by its names, limited to one-token edits: equality and
relational operators, logical operators, arithmetic operators, boolean literals, logical
negation removed, conditions forced true or false, and non-empty strings emptied (module
specifiers excepted: a broken import is caught by anything and tells nothing).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import tree_sitter_javascript
from tree_sitter import Language, Node, Parser

_PARSER = Parser(Language(tree_sitter_javascript.language()))

_EQUALITY = {
    "===": ("!==",),
    "!==": ("===",),
    "==": ("!=",),
    "!=": ("==",),
    "<": ("<=", ">="),
    "<=": ("<", ">"),
    ">": (">=", "<="),
    ">=": (">", "<"),
}
_LOGICAL = {"&&": ("||",), "||": ("&&",), "??": ("&&",)}
_ARITHMETIC = {"+": ("-",), "-": ("+",), "*": ("/",), "/": ("*",), "%": ("*",)}
_CONDITION_PARENTS = {"if_statement", "while_statement", "do_statement", "ternary_expression"}


@dataclass(frozen=True)
class JsEdit:
    operator: str  # Stryker's mutator name
    start: int  # byte offsets of the replaced text
    end: int
    replacement: str
    line: int  # 1-based

    def apply(self, source: bytes) -> bytes:
        return source[: self.start] + self.replacement.encode() + source[self.end :]


def edits(source: bytes) -> list[JsEdit]:
    """Every one-token mutation of a script, in source order."""
    return sorted(_walk(_PARSER.parse(source).root_node), key=lambda edit: (edit.start, edit.operator))


def _walk(node: Node) -> Iterator[JsEdit]:
    yield from _at(node)
    for child in node.children:
        yield from _walk(child)


def _edit(operator: str, node: Node, replacement: str) -> JsEdit:
    return JsEdit(operator, node.start_byte, node.end_byte, replacement, node.start_point[0] + 1)


def _at(node: Node) -> Iterator[JsEdit]:
    if node.type == "binary_expression":
        token = node.child_by_field_name("operator")
        if token is not None:
            text = token.type
            for table, name in (
                (_EQUALITY, "EqualityOperator"),
                (_LOGICAL, "LogicalOperator"),
                (_ARITHMETIC, "ArithmeticOperator"),
            ):
                for replacement in table.get(text, ()):
                    yield _edit(name, token, replacement)
    elif node.type in ("true", "false"):
        yield _edit("BooleanLiteral", node, "false" if node.type == "true" else "true")
    elif node.type == "unary_expression" and node.children[0].type == "!":
        argument = node.child_by_field_name("argument")
        if argument is not None and argument.text is not None:
            yield _edit("BooleanLiteral", node, argument.text.decode())
    elif node.type == "string" and node.end_byte - node.start_byte > 2 and not _is_module_specifier(node):
        yield _edit("StringLiteral", node, '""')
    parent = node.parent
    if (
        parent is not None
        and parent.type in _CONDITION_PARENTS
        and node == parent.child_by_field_name("condition")
    ):
        for forced in ("true", "false"):
            yield _edit("ConditionalExpression", node, f"({forced})")


def _is_module_specifier(node: Node) -> bool:
    parent = node.parent
    if parent is None:
        return False
    if parent.type in ("import_statement", "export_statement"):
        return True
    # import('./x.js')
    call = parent.parent if parent.type == "arguments" else None
    return call is not None and call.type == "call_expression" and call.children[0].type == "import"
