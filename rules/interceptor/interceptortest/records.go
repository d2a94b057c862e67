// Package interceptortest holds detailed (INTERCEPTOR) ship records for
// tests, field by field: issue 14's Space Gull, and the Tern, which uses
// every key of a record (importers/testdata/detail/tern.yaml). Each call
// returns a fresh copy, free to change.
package interceptortest

import "github.com/ltscamp/ltscamp/rules/interceptor"

// SpaceGull is the record of issue 14's worked example.
func SpaceGull() interceptor.Spec {
	return interceptor.Spec{
		Name:   "Space Gull",
		Armour: interceptor.ArmourSpec{Forward: 80, Aft: 40, Left: 40, Right: 40},
		Internal: [][]string{
			{"F", "F", "F", "F", "F", "F", "F", "F", "F", "F"},
			{"E1", "E1", "P", "P", "C", "C", "P", "P", "E2", "E2"},
			{"E1", "E1", "P", "P", "C", "C", "P", "P", "E2", "E2"},
			{"S", "S", "S", "S", "S", "S", "S", "S", "S", "S"},
		},
		Components: map[string]string{"F": "Free", "E1": "Engine", "E2": "Engine", "P": "Powerplant", "C": "Cockpit", "S": "Ship Destroyed"},
	}
}

// Tern has a turret (Dorsal: 20 armour boxes, two internal rows, missile
// reloads in A), externals, cargo, an occupied hangar and crew.
func Tern() interceptor.Spec {
	return interceptor.Spec{
		Name:   "Tern",
		Armour: interceptor.ArmourSpec{Forward: 60, Aft: 30, Left: 30, Right: 30},
		Internal: [][]string{
			{"F", "F", "W", "W", "F", "F", "W", "W", "F", "F"},
			{"E1", "E1", "P", "P", "C", "C", "P", "P", "E2", "E2"},
			{"E1", "E1", "P", "P", "C", "C", "P", "P", "E2", "E2"},
			{"K", "K", "M", "M", "B", "B", "Q", "Q", "H", "H"},
			{"S", "S", "S", "S", "S", "S", "S", "S", "S", "S"},
		},
		Components: map[string]string{
			"F": "Free", "W": "Weapon", "E1": "Engine", "E2": "Engine", "P": "Powerplant", "C": "Cockpit",
			"K": "Cargo", "M": "Cargo", "B": "Bridge", "Q": "Quarters", "H": "Hangar", "S": "Ship Destroyed",
		},
		Cargo:           map[string]string{"K": "loaded", "M": "missile reloads"},
		OccupiedHangars: []string{"H"},
		Externals: []interceptor.ExternalSpec{
			{Name: "Port Rack", Type: "External Hardpoint", Facing: interceptor.Left, Column: 3},
			{Name: "Rescue Pod", Type: "External Rescue Compartment", Facing: interceptor.Aft, Column: 10},
		},
		Turrets: []interceptor.TurretSpec{{
			Name:   "Dorsal",
			Armour: 20,
			Internal: [][]string{
				{"A", "A", "F", "G", "G", "G", "G", "F", "F", "F"},
				{"T", "T", "T", "T", "T", "T", "T", "T", "T", "T"},
			},
			Components: map[string]string{"A": "Cargo", "F": "Free", "G": "Weapon", "T": "Turret Structure"},
			Cargo:      map[string]string{"A": "missile reloads"},
		}},
		Crew: []interceptor.CrewSpec{
			{Name: "Marcos", Race: "Human", Station: "C"},
			{Name: "Vess", Race: "Naram", Station: "B"},
			{Name: "Grusk", Race: "KessRith", Station: "Q"},
		},
	}
}
