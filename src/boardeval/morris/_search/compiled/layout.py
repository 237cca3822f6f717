"""The compiled search's constants and buffer layout, without numba (private).

The Python driver (:mod:`.engine`) and the compiled code (:mod:`.movegen`, :mod:`.pvs`) share them; this
module imports nothing heavy, so a process that runs the ahead-of-time compiled kernels (:mod:`.kernels`)
never imports numba.

Buffers (fewer arguments per compiled call: faster calls and a shorter compile):

- ``ib`` (int64, one per search thread): configuration ``C_*``, counters ``S_*``, killers, history,
  principal variation, move lists and their ordering keys;
- ``fb`` (float64, one per search thread): deadline, LMR divisor, the root's partial result, coefficients;
- ``tt`` (int64) and ``ttf`` (the same memory as float64), shared by every search thread: the table-key
  tweaks, the shared stop word, then the transposition table, three words per slot -- ``key ^ info ^
  value bits`` (a slot torn by two threads writing at once fails this check and reads as empty), ``info``
  (move bits 0-15, depth 16-23, bound 24-25, generation 28-30, epoch 32-47) and the value. A slot of
  another epoch than ``ib[C_EPOCH]`` reads as empty: the driver starts a new epoch where it used to clear
  the table (before every search under the repetition rule), which costs nothing instead of 24 MB of
  writes per search.
"""

from __future__ import annotations

import math
from typing import Final

WIN: Final[float] = 10_000.0
"""Score of a won position (``evaluate.WIN_SCORE``); a win ``n`` turns away scores ``WIN - n``."""
MATE_BOUND: Final[float] = WIN - 1_000.0
MAX_PLY: Final[int] = 128
"""Deepest ply a line may reach (search depth plus quiescence and extensions)."""
INF: Final[float] = math.inf

NONE_POINT: Final[int] = 24
"""``src`` of a placement and ``rem`` of a turn without removal in the int encoding."""
NO_LIMIT: Final[int] = -1
"""``max_turns`` / ``no_mill_turns`` of a variant without that rule."""
MAX_TURNS_PER_NODE: Final[int] = 512
"""Move-buffer size per ply; the true maximum is below 340 (9 men x 4 targets x 9 removals, or flying)."""
FULL: Final[int] = (1 << 24) - 1
PLACING, MOVING, FLYING = 0, 1, 2

# ib: configuration
C_FLY, C_MAXT, C_THREE, C_NOMILL, C_TT, C_KILL, C_HIST, C_LMR, C_QS, C_MDP, C_PVS, C_QSMAX, C_ORDER = range(
    13
)
C_LMR_MIN, C_LMR_DEPTH, C_TTMASK, C_GEN, C_NULL, C_NULL_R = 13, 14, 15, 16, 17, 18
C_TB = 19  # probe the tablebase at every covered node below the root (issue 25)
C_BEXT = 20  # blockade extension: extend a node whose mover slides with at most this many moves (0: off)
C_CLOCK = 21  # the clock_gettime clock id of the deadline (CLOCK_MONOTONIC)
C_EPOCH = 22  # the table's epoch: entries of another epoch read as empty (a clear without writing 24 MB)
C_EXACT = 23  # placing nodes that reach the last placement: 1 = no null move, 2 = no reduction short of it
# ib: counters and the root's state
S_NODES, S_STOP, S_NEXT, S_LIMIT, S_QNODES, S_TTHITS, S_ROOTN, S_BEST = 32, 33, 34, 35, 36, 37, 38, 39
S_PART, S_PARTI = 40, 41  # the root turn that last raised alpha in this pass, and its index
S_TBHITS, S_EXT, S_ROOTD = 42, 43, 44  # tablebase scores used, extensions made, the root's depth
S_CLK = 46  # two words: the clock's timespec
O_KILL = 64
O_HH = O_KILL + 2 * MAX_PLY
O_PVLEN = O_HH + 1200
O_PV = O_PVLEN + MAX_PLY
O_MOVES = O_PV + MAX_PLY * MAX_PLY
O_MSCORE = O_MOVES + MAX_PLY * MAX_TURNS_PER_NODE
IB_SIZE: Final[int] = O_MSCORE + MAX_PLY * MAX_TURNS_PER_NODE
# fb
D_DEADLINE, D_LMR_DIV, D_PART = 0, 1, 2
O_COEF = 8
FB_SIZE: Final[int] = 64
# tt / ttf (shared)
T_ZTW = 0
T_STOP = 3 * 1024
T_TT = T_STOP + 64
"""Slot ``s`` of the table: ``tt[T_TT + 3 s]`` checked key, ``tt[T_TT + 3 s + 1]`` info,
``ttf[T_TT + 3 s + 2]`` value; two slots per bucket (depth-preferred, always replace)."""
# table flags (0 = empty slot)
F_EXACT, F_LOWER, F_UPPER = 1, 2, 3
