"""Who is better: TrueSkill ratings (`rater`, `trueskill_kernel`), a generation's league and its
anchors, and the crowning of a proven champion (`champion`, `crownings`)."""
