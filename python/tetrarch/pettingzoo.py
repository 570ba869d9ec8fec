"""PettingZoo AEC environments for every tetrarch variant (`pip install "./python[pettingzoo]"`).

    from tetrarch.pettingzoo import env
    e = env("judtho")
    e.reset(seed=0)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        ...

Agents are the variant's players, named by the seat letters they command (`"b"`, `"w"`; Double
Mate's `"yr"` and `"bg"`). An action is one of `Board.num_actions`; most moves are one action,
and a move that carries choices (a Dojo D6 piece or D9 deputy, a Judtho promotion or promotion
square) is entered as several, the same agent acting again until the move is whole: the
`action_mask` always shows what may come next (int8, as `action_space.sample(mask)` wants it),
and the mover's `info["legal_actions"]` lists the same actions as a sorted array of ids (others
get an empty one): where the numbering is wide (Judtho's 79,498 actions, Chaturanga's 16,386),
choosing from it saves an agent the scan of the mask. Rewards come at the end from the final
sides and places (`tetrarch.rewards`). An army that goes out of all against all is terminated when it goes
out, with its reward then; a mated army of Double Mate stays in and passes.
"""

from __future__ import annotations

import numpy as np

from . import Board, players, rewards

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as e:  # pragma: no cover - the extra is optional
    raise ImportError('tetrarch.pettingzoo needs the extra: pip install "./python[pettingzoo]" (from a clone)') from e


def env(variant: str = "judkins", **kwargs) -> AECEnv:
    """The environment for `variant`, with PettingZoo's usual checks around it."""
    e = raw_env(variant, **kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):
    metadata = {"render_modes": ["ansi"], "name": "tetrarch_v0", "is_parallelizable": False}

    def __init__(self, variant: str = "judkins", render_mode: str | None = None, max_plies: int = 1000):
        super().__init__()
        self.variant = variant
        self.render_mode = render_mode
        self.max_plies = max_plies
        self.board = Board(variant)
        # Only a variant whose armies go out (all against all) notes them in its status.
        self._tracks_out = "out" in self.board.status()
        self._no_actions = np.zeros(0, dtype=np.uint32)
        self.possible_agents = players(variant)
        self._player_of = {s: p for p in self.possible_agents for s in p}
        n = self.board.num_actions
        shape = self.board.observation().shape
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=0.0, high=1.0, shape=shape, dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.metadata = dict(self.metadata, name=f"tetrarch_{variant.replace('-', '_')}_v0")

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        self.board = Board(self.variant)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._prefix: list[int] = []
        self._out: set[str] = set()
        self.agent_selection = self._player_of[self.board.turn]
        self._legal = self.board.legal_actions()
        self._refresh()

    def _refresh(self):
        # The decision now, made once (`_legal`): the mover's legal actions, for its `info` and
        # its mask.
        mover = self._player_of[self.board.turn]
        if self.terminations.get(mover, True) or self.truncations.get(mover, True):
            self._legal = self._no_actions
        for a in self.agents:
            self.infos[a] = {"legal_actions": self._legal if a == mover else self._no_actions}

    def _seat(self, agent: str) -> str:
        # A player of two armies sees the board as the one of them to move, else its first.
        return self.board.turn if self.board.turn in agent else agent[0]

    def observe(self, agent):
        # Planes hold counts that may pass 1 (a Dojo stack of two alike members): the space is [0, 1].
        obs = self.board.observation(self._seat(agent), clip=True)
        mask = np.zeros(self.board.num_actions, dtype=np.int8)
        if agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent]):
            mask[self._legal] = 1
        return {"observation": obs, "action_mask": mask}

    def _out_now(self) -> set:
        out = self.board.status().get("out", "-")
        return set() if out == "-" else set(out)

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        # `push_actions` refuses an illegal action with nothing changed: the agent may act again.
        prefix = self._prefix + [int(action)]
        try:
            if not 0 <= prefix[-1] < self.board.num_actions:
                raise ValueError
            move = self.board.push_actions(prefix)
        except ValueError:
            raise ValueError(f"action {action} is not legal here") from None
        self._prefix = prefix
        if move is None:
            # A move begun: the same agent chooses what it carries.
            self._legal = self.board.legal_actions(prefix)
            self._refresh()
            self._accumulate_rewards()
            return
        self._prefix = []
        # A game goes on exactly while the player to move has a legal move (a pass is one).
        self._legal = self.board.legal_actions()
        over = len(self._legal) == 0
        if over:
            for a, r in rewards(self.board).items():
                if a in self.agents and not self.terminations[a]:
                    self.rewards[a] = r
                    self.terminations[a] = True
        else:
            # Armies out of all against all leave, each with its place among those still in.
            for seat in (self._out_now() if self._tracks_out else set()) - self._out:
                self._out.add(seat)
                a = self._player_of[seat]
                self.rewards[a] = self._reward_when_out(seat)
                self.terminations[a] = True
            if self.board.ply >= self.max_plies:
                for a in self.agents:
                    self.truncations[a] = True
        if not over:
            self.agent_selection = self._player_of[self.board.turn]
        self._refresh()
        self._accumulate_rewards()
        self._deads_step_first()

    def _reward_when_out(self, seat: str) -> float:
        # Worse than every army still in, better than those out before it.
        others = [s for s in self.board.seats if s != seat]
        score = sum(1 if s in self._out else -1 for s in others)
        return score / len(others)

    def render(self):
        if self.render_mode == "ansi":
            return self.board.position()
        return None

    def close(self):
        pass
