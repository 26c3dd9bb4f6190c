"""Errors a user can cause.

:class:`UserError` is anticipated bad input (an unknown claim id, an invalid size, an
``alpha`` outside its range, orthogonal data asked for with ``d < n``).  The CLI prints
its message as one line and exits with status 2; any other exception is a bug and
becomes an ERROR verdict with its traceback stored in the results.
"""


class UserError(Exception):
    """Bad input: reported as one line, exit status 2, never a traceback."""
