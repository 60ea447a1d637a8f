"""Agents that choose actions for a seat: random, greedy, IS-MCTS, and the line-up parser."""
