"""What is written out of a run or of the code: the report page, plots, the ladder of
ancestral champions, an exported bot file and the generated parts of the docs."""
