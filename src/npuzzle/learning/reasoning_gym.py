"""The ``n_puzzle`` task of reasoning-gym (``pip install 'npuzzle[reasoning]'``): importing this
module registers it when reasoning-gym is installed (reasoning-gym has no entry points for data
sets of other packages), so that reasoning-gym's own API serves it::

    import reasoning_gym
    import npuzzle.learning.reasoning_gym  # noqa: F401 (registers n_puzzle)

    data = reasoning_gym.create_dataset("n_puzzle", rows=3, cols=3, min_distance=10,
                                        max_distance=20, seed=1, size=100)
    entry = data[0]  # question, answer (an optimal solution: letters), metadata (the labels)
    data.score_answer(entry["answer"], entry)  # 1.0

The configuration is ``task.TaskConfig`` (rows, cols, min_distance, max_distance, scramble,
goal, seed, size), the entries and the score are ``task``'s, and the curriculum
(``reasoning_gym.create_curriculum("n_puzzle")``) steps the distance range through
``task.DISTANCE_LEVELS``. Without reasoning-gym the module imports and ``REGISTERED`` is false.

>>> config = TaskConfig(rows=2, cols=3, min_distance=3, max_distance=3, seed=1, size=2)
>>> entries = list(Dataset(config)) if REGISTERED else [make_entry(config, i) for i in range(2)]
>>> [e["metadata"]["optimum"] for e in entries]
[3, 3]
"""

from __future__ import annotations

from typing import Any

from .task import DATASET_NAME, DISTANCE_LEVELS, TaskConfig, make_entry, score_answer

#: The data set's class (a reasoning-gym ``ProceduralDataset``), None without reasoning-gym.
Dataset: Any = None
#: The curriculum's class (a reasoning-gym ``BaseCurriculum``), None without reasoning-gym.
Curriculum: Any = None


def register() -> bool:
    """Register ``n_puzzle`` with reasoning-gym (once); False if reasoning-gym is not installed."""
    global Dataset, Curriculum
    try:
        from reasoning_gym.coaching import BaseCurriculum, RangeAttributeDefinition
        from reasoning_gym.dataset import ProceduralDataset
        from reasoning_gym.factory import CURRICULA, DATASETS, register_dataset
    except ImportError:
        return False
    if DATASET_NAME in DATASETS:
        Dataset, Curriculum = DATASETS[DATASET_NAME][0], CURRICULA.get(DATASET_NAME)
        return True

    class NPuzzleDataset(ProceduralDataset):  # type: ignore[misc]
        """Sliding puzzles, their optimal solutions and labels (``npuzzle.learning.task``)."""

        def __init__(self, config: TaskConfig) -> None:
            super().__init__(config=config, seed=config.seed, size=config.size)

        @property
        def category(self) -> str:
            return "games"

        def __getitem__(self, idx: int) -> dict[str, Any]:
            return make_entry(self.config, idx, self.seed)

        def score_answer(self, answer: str | None, entry: dict[str, Any]) -> float:
            return score_answer(answer, entry)

    class NPuzzleCurriculum(BaseCurriculum):  # type: ignore[misc]
        """The distance range, level by level."""

        def __init__(self) -> None:
            super().__init__(NPuzzleCurriculum.__name__, TaskConfig)
            self._define_attributes(RangeAttributeDefinition(
                name="distance", levels=list(DISTANCE_LEVELS), description="the optimal number of moves",
                lower_field_name="min_distance", upper_field_name="max_distance", ensure_interval=True))

    register_dataset(DATASET_NAME, NPuzzleDataset, TaskConfig, NPuzzleCurriculum)
    Dataset, Curriculum = NPuzzleDataset, NPuzzleCurriculum
    return True


#: Whether ``n_puzzle`` is registered with reasoning-gym.
REGISTERED = register()
