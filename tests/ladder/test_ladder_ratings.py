"""TrueSkill use: published examples, the ladder's environment, the self-partner rule, fallback."""

from __future__ import annotations

import pytest

from ladder.rating.ratings import LADDER_PARAMS, Outcome, RatingEnv, RatingError, RatingParams, Skill

# trueskill's own defaults (beta = sigma/2, tau = sigma/100, 10% draws), as in its published examples.
PUBLISHED = RatingParams(mu=25.0, sigma=25.0 / 3, beta=25.0 / 6, tau=25.0 / 300, draw_probability=0.10)


def close(skill: Skill, mu: float, sigma: float) -> bool:
    return round(skill.mu, 3) == mu and round(skill.sigma, 3) == sigma


def test_published_one_vs_one_example() -> None:
    # pypi.org/project/trueskill: Rating(25, 8.333) vs Rating(30, 8.333) -> 30.768/7.030, 24.232/7.030; quality 41.6%
    env = RatingEnv(PUBLISHED)
    a, b = Skill(25, 8.333), Skill(30, 8.333)
    assert f"{env.quality([a], [b]):.1%}" == "41.6%"
    (new_a,), (new_b,) = env.rate([[a], [b]], Outcome.A_WINS)
    assert close(new_a, 30.768, 7.030) and close(new_b, 24.232, 7.030)


def test_published_team_and_draw_examples() -> None:
    # trueskill.org: one new player beats two new players -> 33.731/7.317 and 16.269/7.317 each
    env = RatingEnv(PUBLISHED)
    (one,), (two, three) = env.rate([[env.new()], [env.new(), env.new()]], Outcome.A_WINS)
    assert close(one, 33.731, 7.317) and close(two, 16.269, 7.317) and close(three, 16.269, 7.317)
    # trueskill.org: a draw between new players -> 25.000/6.458 each
    (x,), (y,) = env.rate([[env.new()], [env.new()]], Outcome.DRAW)
    assert close(x, 25.0, 6.458) and close(y, 25.0, 6.458)


def test_ladder_environment_is_explicit_and_near_static() -> None:
    env = RatingEnv()
    assert env.params is LADDER_PARAMS and env.params.tau <= 0.01 and env.params.draw_probability > 0
    assert env.new() == Skill(25.0, 25.0 / 3) and env.new().conservative == pytest.approx(0.0)


def test_self_partner_counts_once_with_the_same_update_as_two_equal_players() -> None:
    env = RatingEnv()
    skills = {1: Skill(25, 5), 2: Skill(22, 6)}
    updated = env.rate_versions((1, 1), (2, 2), skills, Outcome.A_WINS)
    assert set(updated) == {1, 2}
    [[a1, a2], [b1, b2]] = env.rate([[skills[1], skills[1]], [skills[2], skills[2]]], Outcome.A_WINS)
    assert a1 == a2 == updated[1] and b1 == b2 == updated[2]
    assert updated[1].mu > 25 and updated[2].mu < 22


def test_a_version_on_both_sides_is_refused() -> None:
    with pytest.raises(RatingError, match="both sides"):
        RatingEnv().rate_versions((1, 2), (2, 3), {i: Skill(25, 8) for i in (1, 2, 3)}, Outcome.DRAW)


def test_extreme_gap_falls_back_to_the_stable_backend() -> None:
    env = RatingEnv()
    (low,), (high,) = env.rate([[Skill(0, 1)], [Skill(1000, 1)]], Outcome.A_WINS)  # a huge upset
    assert env.fallbacks == 1
    assert low.mu > 0 and high.mu < 1000 and low.sigma > 0


def test_outcome_for_each_team() -> None:
    assert Outcome.A_WINS.for_team(0) == "win" and Outcome.A_WINS.for_team(1) == "loss"
    assert Outcome.DRAW.for_team(1) == "draw" and Outcome.B_WINS.ranks() == [1, 0]
