"""The error a reader raises for a hand it cannot read: where it is, and what was expected."""

from __future__ import annotations


class HandSyntaxError(ValueError):
    """A hand that does not follow its format.

    `line` and `column` are 1-based and count from the start of the file once the reader has
    placed the hand in it; `expected` lists what would have been accepted at that point.
    """

    def __init__(
        self, message: str, line: int, column: int, expected: tuple[str, ...] = ()
    ) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.expected = expected

    def shifted(self, lines: int) -> HandSyntaxError:
        """The same error with its line moved down by `lines` (hand offset within a file)."""
        return HandSyntaxError(self.message, self.line + lines, self.column, self.expected)

    def describe(self) -> str:
        """What went wrong and what was expected, without the position."""
        if self.expected:
            return f"{self.message} (expected {', '.join(self.expected)})"
        return self.message

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.describe()}"
