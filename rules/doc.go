// Package rules is the game of Legends of Time and Space as ltscamp encodes
// it: editions, attributes, the skill catalogue, dice and check notation,
// checks, contests, damage rolls, character creation and XP prices, the
// weapon and armour tables, attacks, injury, fatigue and recovery, medics,
// curses, wishes and storyteller karma.
//
// The package is pure. It imports nothing else from ltscamp, does no I/O,
// reads no clock and keeps no mutable state; dice faces come in through a
// Roller passed as a parameter (CryptoRoller in production, GivenFaces for
// physical dice and tests).
//
// Rules are cited in comments by edition and section title, for example
// 2021 "Increasing Attributes". The rule books are the plain-text seeds
// 003 (edition 2010), 002 (edition 2020) and 001 (edition 2021).
package rules
