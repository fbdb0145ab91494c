"""For research: the OpenSpiel game, the PettingZoo and Gymnasium environments, their
features and action ids, the fast simulation kernel and seeded tournaments. Built on the
engine and the bots.
"""
