from npuzzle import Board


def test_goal_is_goal():
    assert Board.goal(3, 4).is_goal()
