"""tetrarch: Judkins shogi, Dojo chess, four-handed Chaturanga and Judtho for Python.

The rules, the texts, the action numbering and the search are those of the tetrarch engine
(a Rust library, compiled into this package): there is no second copy of any rule here.

    >>> import tetrarch
    >>> b = tetrarch.Board("judkins")
    >>> b.push("6e6d")
    >>> tetrarch.Engine("judkins").search(b, depth=4)["move"] in b.legal_moves()
    True

`tetrarch.pettingzoo` and `tetrarch.openspiel` adapt every variant to those frameworks.
"""

from ._tetrarch import (
    Board,
    Engine,
    IllegalMoveError,
    InvalidMoveError,
    InvalidPositionError,
    __version__,
    players,
    variants,
)

__all__ = [
    "Board",
    "Engine",
    "IllegalMoveError",
    "InvalidMoveError",
    "InvalidPositionError",
    "variants",
    "players",
    "rewards",
    "__version__",
]

def rewards(board: Board) -> dict:
    """Each player's reward once the game is over, from -1 to 1: the mean, over the seats of
    the other final sides, of +1 for a better place, -1 for a worse one and 0 for the same.
    Allies (a final side) share their reward; a draw gives 0 to all."""
    out = board.outcome()
    if out is None:
        raise ValueError("the game is not over")
    places = out["places"]
    sides = board.sides()
    side_of = {s: side for side in sides for s in side}
    result = {}
    for player in players(board.variant):
        total, count = 0, 0
        for me in player:
            for other, place in places.items():
                if side_of[other] == side_of[me]:
                    continue
                total += (places[me] < place) - (places[me] > place)
                count += 1
        result[player] = total / count if count else 0.0
    return result
