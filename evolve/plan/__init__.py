"""Planning champions: a planning bot fitted from a greedy one (`planfit`, `plan_cmd`) and a
run's planning step over its lines of descent (`lines`, `planmark`)."""
