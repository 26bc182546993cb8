"""Catan's phrase book (words.json), loaded once for the whole engine.

It lives apart from view.py because view imports the rules, and the rules need the book to
refuse an action in the player's language.
"""
from games.engines.words import Phrasebook

WORDS = Phrasebook.beside(__file__)
