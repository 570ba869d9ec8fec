"""OpenSpiel games for every tetrarch variant (`pip install "./python[openspiel]"`).

Importing this module registers `python_tetrarch_judkins`, `python_tetrarch_dojo`,
`python_tetrarch_chaturanga`, `python_tetrarch_chaturanga_ffa` and `python_tetrarch_judtho`:

    import pyspiel
    import tetrarch.openspiel
    game = pyspiel.load_game("python_tetrarch_judtho")

Players are the variant's players (`tetrarch.players`), actions the package's numbering: a
move that carries choices is several actions by the same player, as OpenSpiel's Amazons splits
its moves. Returns come at the end from the final sides and places (`tetrarch.rewards`); a game
still on after `max_plies` plies (a parameter, 1000 unless given) is over with returns of 0.
"""

from __future__ import annotations

import numpy as np

from . import Board, players, rewards, variants

try:
    import pyspiel
except ImportError as e:  # pragma: no cover - the extra is optional
    raise ImportError('tetrarch.openspiel needs the extra: pip install "./python[openspiel]" (from a clone)') from e

MAX_PLIES = 1000
# The most actions one move takes (Dojo: its squares, its D6 piece, its D9 deputy, END).
_MOST_ACTIONS = 4


def _game_type(variant: str) -> pyspiel.GameType:
    n = len(players(variant))
    return pyspiel.GameType(
        short_name=f"python_tetrarch_{variant.replace('-', '_')}",
        long_name=f"tetrarch {variant}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if n == 2 else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"max_plies": MAX_PLIES},
    )


class TetrarchGame(pyspiel.Game):
    """One variant as an OpenSpiel game."""

    variant = "judkins"

    def __init__(self, params=None):
        params = params or {}
        max_plies = int(params.get("max_plies", MAX_PLIES))
        board = Board(self.variant)
        n = len(players(self.variant))
        info = pyspiel.GameInfo(
            num_distinct_actions=board.num_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if n == 2 else None,
            max_game_length=max_plies * _MOST_ACTIONS,
        )
        super().__init__(_game_type(self.variant), info, {"max_plies": max_plies})

    def new_initial_state(self):
        return TetrarchState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return TetrarchObserver(Board(self.variant).observation().shape)


class TetrarchState(pyspiel.State):
    def __init__(self, game: TetrarchGame):
        super().__init__(game)
        # What the game object holds for its states is its class and its parameters.
        self._variant = type(game).variant
        self._max_plies = int(game.get_parameters().get("max_plies", MAX_PLIES))
        self.board = Board(self._variant)
        self._players = players(self._variant)
        self._prefix: list[int] = []

    def _over(self) -> bool:
        return self.board.is_game_over() or self.board.ply >= self._max_plies

    def current_player(self):
        if self._over():
            return pyspiel.PlayerId.TERMINAL
        return next(i for i, p in enumerate(self._players) if self.board.turn in p)

    def _legal_actions(self, player):
        if self._over() or player != self.current_player():
            return []
        return self.board.legal_actions(self._prefix).tolist()

    def _apply_action(self, action):
        # OpenSpiel leaves legality to the game: an action outside the legal ones is refused
        # and nothing changes.
        mask = self.board.legal_action_mask(self._prefix) if not self._over() else []
        if not 0 <= int(action) < len(mask) or not mask[int(action)]:
            raise ValueError(f"action {action} is not legal here")
        self._prefix.append(int(action))
        try:
            move = self.board.action_to_move(self._prefix)
        except ValueError:
            return
        self._prefix = []
        self.board.push(move)

    def _action_to_string(self, player, action):
        # The move's own text where the action ends a move from here; else the action's number
        # after the actions of the move begun (an action stands for nothing alone).
        try:
            return self.board.action_to_move(self._prefix + [int(action)])
        except ValueError:
            return " ".join(map(str, self._prefix + [int(action)]))

    def is_terminal(self):
        return self._over()

    def returns(self):
        if not self.board.is_game_over():
            return [0.0] * len(self._players)
        r = rewards(self.board)
        return [r[p] for p in self._players]

    def __str__(self):
        pending = f" [{' '.join(map(str, self._prefix))}]" if self._prefix else ""
        return self.board.position() + pending


class TetrarchObserver:
    """The board's planes (`Board.observation`) seen by a player."""

    def __init__(self, shape):
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: TetrarchState, player: int):
        seats = state._players[player]
        seat = state.board.turn if state.board.turn in seats else seats[0]
        self.tensor[:] = state.board.observation(seat, clip=True).ravel()

    def string_from(self, state: TetrarchState, player: int):
        return str(state)


def _register():
    for v in variants():
        cls = type(f"TetrarchGame_{v.replace('-', '_')}", (TetrarchGame,), {"variant": v})
        pyspiel.register_game(_game_type(v), cls)


_register()
