// Package interceptor holds the pure rules of INTERCEPTOR's detailed ship
// records (issue 14): armour blocks ten columns wide per facing, an Internal
// Component Block, external systems, turrets, crew stations, hits by lasers
// and damage templates, widowed armour, internal damage effects, the rolls
// those effects call for, and repair times.
//
// The package does no I/O, reads no clock, holds no mutable globals and never
// rolls dice: every die face comes in as an argument, so a fold over stored
// events reproduces the same ship. A Ship is a value: Hit, RemoveWidowed,
// EndTurn and the Resolve methods return a new Ship and leave the old one as
// it was, together with a Report of what happened.
//
// The book is the INTERCEPTOR rule text kept at seeds/004_96d2699fc65cf6de.txt;
// comments cite its sections and line numbers ("book l.327").
package interceptor
