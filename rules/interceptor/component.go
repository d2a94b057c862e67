package interceptor

import (
	"strings"
)

// ComponentType is the kind of an internal component. Its string value is a
// stable key stored in events and files; it never changes when Go names do.
type ComponentType string

// The component types of the book's INTERNAL DAMAGE EFFECTS (book l.347-451),
// plus Free boxes (book l.337) and Missile Reloads (CARGO BAY, book l.435).
const (
	Free                    ComponentType = "free"
	Bridge                  ComponentType = "bridge"
	Cockpit                 ComponentType = "cockpit"
	DirectionalControl      ComponentType = "directional_control"
	AtmosphericControl      ComponentType = "atmospheric_control"
	Transponder             ComponentType = "transponder"
	Communications          ComponentType = "communications"
	LongRangeSensors        ComponentType = "long_range_sensors"
	Scanner                 ComponentType = "scanner"
	NavigationComputer      ComponentType = "navigation_computer"
	FTLNavigationComputer   ComponentType = "ftl_navigation_computer"
	MainFireControl         ComponentType = "main_fire_control"
	ShieldSynchronizer      ComponentType = "shield_synchronizer"
	HelmControl             ComponentType = "helm_control"
	ThrustControl           ComponentType = "thrust_control"
	Hardpoint               ComponentType = "hardpoint"
	ExternalHardpoint       ComponentType = "external_hardpoint"
	ExternalHeavyHardpoint  ComponentType = "external_heavy_hardpoint"
	Autoloader              ComponentType = "autoloader"
	AutoloaderAmmunition    ComponentType = "autoloader_ammunition"
	TimeOnTarget            ComponentType = "time_on_target"
	Weapon                  ComponentType = "weapon"
	ShieldGenerator         ComponentType = "shield_generator"
	InternalECM             ComponentType = "internal_ecm"
	TurretStructure         ComponentType = "turret_structure"
	VLCAPanels              ComponentType = "vlca_panels"
	ExtensionRetraction     ComponentType = "extension_retraction_gear"
	Powerplant              ComponentType = "powerplant"
	Engine                  ComponentType = "engine"
	FTLDrive                ComponentType = "ftl_drive"
	AntiGravLifters         ComponentType = "anti_grav_lifters"
	FuelTanks               ComponentType = "fuel_tanks"
	AccelerationCompensator ComponentType = "acceleration_compensator"
	Quarters                ComponentType = "quarters"
	Cargo                   ComponentType = "cargo"
	MissileReloads          ComponentType = "missile_reloads"
	LifeSupport             ComponentType = "life_support"
	RepairFacilities        ComponentType = "repair_facilities"
	Hangar                  ComponentType = "hangar"
	TowingAttachments       ComponentType = "towing_attachments"
	FTLDriveJumpers         ComponentType = "ftl_drive_jumpers"
	Hospital                ComponentType = "hospital"
	RescueCompartment       ComponentType = "rescue_compartment"
	ExternalRescue          ComponentType = "external_rescue_compartment"
	ShipDestroyed           ComponentType = "ship_destroyed"
)

// componentInfo is one row of the component table: the type, the name the
// book prints, other names a record may use, and the repair time per box.
type componentInfo struct {
	Type ComponentType
	Name string
	// Aliases are further accepted spellings (lower case).
	Aliases []string
	// RepairMinutes is the repair time per box; -1 means the book says
	// "REPAIR TIME: N/A"; 0 means the book gives no repair time at all.
	RepairMinutes int
	// Source cites the book line the repair time comes from.
	Source string
}

// componentTable returns the component table. Repair times are the book's
// "REPAIR TIME" entries in INTERNAL DAMAGE EFFECTS (book l.347-451).
func componentTable() []componentInfo {
	const h = 60
	return []componentInfo{
		{Free, "Free", nil, 0, "l.337: no effect; no repair time given"},
		{Bridge, "Bridge", nil, 24 * h, "l.353 REPAIR TIME (BRIDGE ONLY): 24 hours per box"},
		{Cockpit, "Cockpit", nil, 24 * h, "l.367 REPAIR TIME (COCKPIT ONLY): 24 hours per box"},
		{DirectionalControl, "Directional Control Systems", []string{"dcs", "directional control system"}, 2 * h, "l.369 2 hours per box"},
		{AtmosphericControl, "Atmospheric Control Systems", []string{"acs", "atmospheric control system"}, 1 * h, "l.371 1 hour per box"},
		{Transponder, "Transponder", nil, 15, "l.375 15 minutes per box"},
		{Communications, "Communications", nil, 1 * h, "l.377 1 hour per box"},
		{LongRangeSensors, "Long-Range Sensors", []string{"long range sensors"}, 1 * h, "l.379 1 hour per box"},
		{Scanner, "Scanner", nil, 1 * h, "l.381 1 hour per box"},
		{NavigationComputer, "Navigation Computer", nil, 1 * h, "l.383 1 hour per box"},
		{FTLNavigationComputer, "Faster-Than-Light Navigation Computer", []string{"ftl navigation computer"}, 1 * h, "l.385 1 hour per box"},
		{MainFireControl, "Main Fire Control Computer", nil, 1 * h, "l.387 1 hour per box"},
		{ShieldSynchronizer, "Shield Synchronizer", nil, 1 * h, "l.389 1 hour per box"},
		{HelmControl, "Helm Control Computer", nil, 1 * h, "l.391 1 hour per box"},
		{ThrustControl, "Thrust Control Computer", nil, 1 * h, "l.393 1 hour per box"},
		{Hardpoint, "Hardpoint", []string{"internal hardpoint"}, 1 * h, "l.397 HARDPOINT (INTERNAL OR EXTERNAL): 1 hour per box"},
		{ExternalHardpoint, "External Hardpoint", nil, 1 * h, "l.397 HARDPOINT (INTERNAL OR EXTERNAL): 1 hour per box"},
		{ExternalHeavyHardpoint, "External Heavy Hardpoint", nil, 1 * h, "l.397 HARDPOINT (INTERNAL OR EXTERNAL): 1 hour per box"},
		{Autoloader, "Autoloader", nil, 2 * h, "l.399 2 hours per box"},
		{AutoloaderAmmunition, "Autoloader Ammunition", nil, 2 * h, "l.399 AUTOLOADER (both sections): 2 hours per box"},
		{TimeOnTarget, "Time-On-Target Synchronizer", []string{"tot", "time on target synchronizer"}, 2 * h, "l.401 2 hours per box"},
		{Weapon, "Weapon", []string{"defensive system"}, 2 * h, "l.403 ALL OTHER WEAPONS AND DEFENSIVE SYSTEMS: 2 hours per box"},
		{ShieldGenerator, "Shield Generator", nil, 4 * h, "l.405 4 hours per box"},
		{InternalECM, "Internal ECM", []string{"internal ecm gear", "ecm"}, 4 * h, "l.407 4 hours per box"},
		{TurretStructure, "Turret Structure", nil, 0, "l.409: no repair time given"},
		{VLCAPanels, "VLCA Panels", nil, 1 * h, "l.413 1 hour per box"},
		{ExtensionRetraction, "Extension/Retraction Gear", []string{"extension retraction gear"}, 2 * h, "l.415 2 hours per box"},
		{Powerplant, "Powerplant", nil, 1 * h, "l.419 1 hour per box"},
		{Engine, "Engine", nil, 2 * h, "l.421 2 hours per box"},
		{FTLDrive, "FTL Drive", nil, 4 * h, "l.423 4 hours per box"},
		{AntiGravLifters, "Anti-Grav Lifters", []string{"anti grav lifters"}, 2 * h, "l.425 2 hours per box"},
		{FuelTanks, "Fuel Tanks", nil, 1 * h, "l.427 1 hour per box"},
		{AccelerationCompensator, "Acceleration Compensator", nil, 1 * h, "l.429 1 hour per box"},
		{Quarters, "Quarters", nil, 2 * h, "l.433 REPAIR TIME (QUARTERS ONLY): 2 hours per box"},
		{Cargo, "Cargo", []string{"cargo bay"}, -1, "l.435 CARGO BAY: REPAIR TIME: N/A"},
		{MissileReloads, "Missile Reloads", nil, -1, "l.435 CARGO BAY: REPAIR TIME: N/A"},
		{LifeSupport, "Life Support", nil, 2 * h, "l.437 2 hours per box"},
		{RepairFacilities, "Repair Facilities", nil, 1 * h, "l.439 1 hour per box"},
		{Hangar, "Hangar", []string{"hangar bay"}, -1, "l.441 HANGAR BAY: REPAIR TIME: N/A"},
		{TowingAttachments, "Towing Attachments", nil, 2 * h, "l.443 2 hours per box"},
		{FTLDriveJumpers, "FTL Drive Jumpers", nil, 4 * h, "l.445 4 hours per box"},
		{Hospital, "Hospital", []string{"hospital bay"}, 6 * h, "l.447 6 hours per box"},
		{RescueCompartment, "Rescue Compartment", nil, 2 * h, "l.449 2 hours per box"},
		{ExternalRescue, "External Rescue Compartment", nil, 2 * h, "l.449 RESCUE COMPARTMENT: 2 hours per box"},
		{ShipDestroyed, "Ship Destroyed", nil, 12 * h, "l.451 12 hours per box"},
	}
}

// info returns the table row of t and whether t is a known type.
func (t ComponentType) info() (componentInfo, bool) {
	for _, c := range componentTable() {
		if c.Type == t {
			return c, true
		}
	}
	return componentInfo{}, false
}

// Valid reports whether t is one of the component types.
func (t ComponentType) Valid() bool {
	_, ok := t.info()
	return ok
}

// Name returns the name the book prints for t ("Ship Destroyed"), or the key
// itself for an unknown type.
func (t ComponentType) Name() string {
	if c, ok := t.info(); ok {
		return c.Name
	}
	return string(t)
}

// ParseComponentType reads a component type as a record writes it: the book's
// name in any case ("Ship Destroyed", "ship destroyed"), the stable key
// ("ship_destroyed") or an alias ("TOT"). It fails with CodeInvalid.
func ParseComponentType(s string) (ComponentType, error) {
	norm := strings.ToLower(strings.TrimSpace(s))
	for _, c := range componentTable() {
		if norm == string(c.Type) || norm == strings.ToLower(c.Name) ||
			strings.ReplaceAll(norm, " ", "_") == string(c.Type) {
			return c.Type, nil
		}
		for _, a := range c.Aliases {
			if norm == a {
				return c.Type, nil
			}
		}
	}
	return "", errorf(CodeInvalid, "unknown component type %q: use a name from the book's INTERNAL DAMAGE EFFECTS, such as Engine, Powerplant, Cockpit, Bridge, Quarters, Cargo, Hangar, Missile Reloads, Free or Ship Destroyed", s)
}

// RepairMinutes returns the time to repair one box of a component of type t,
// in minutes, from the REPAIR TIME entries of INTERNAL DAMAGE EFFECTS (book
// l.347-451): Bridge 1440 (24 h), Hospital 360 (6 h), Transponder 15, Ship
// Destroyed 720 (12 h). Cargo and Hangar are "REPAIR TIME: N/A" and fail with
// CodeRule, as do Free boxes and Turret Structure, for which the book gives no
// time.
func RepairMinutes(t ComponentType) (int, error) {
	c, ok := t.info()
	switch {
	case !ok:
		return 0, errorf(CodeInvalid, "unknown component type %q", string(t))
	case c.RepairMinutes < 0:
		return 0, errorf(CodeRule, "%s cannot be repaired: the book gives its repair time as N/A (%s)", c.Name, c.Source)
	case c.RepairMinutes == 0:
		return 0, errorf(CodeRule, "%s has no repair time: the book gives none (%s)", c.Name, c.Source)
	}
	return c.RepairMinutes, nil
}

// RepairSource cites the book's REPAIR TIME entry for t ("l.421 2 hours
// per box"), or "" for an unknown type.
func (t ComponentType) RepairSource() string {
	c, _ := t.info()
	return c.Source
}

// RepairTime returns the minutes needed to repair boxes destroyed boxes of a
// component of type t: RepairMinutes(t) times boxes.
func RepairTime(t ComponentType, boxes int) (int, error) {
	if boxes < 0 {
		return 0, errorf(CodeInvalid, "cannot repair %d boxes", boxes)
	}
	m, err := RepairMinutes(t)
	if err != nil {
		return 0, err
	}
	return m * boxes, nil
}

// explosive reports whether a destroyed box of t sets off secondary
// explosions: Missile Reloads (CARGO BAY, book l.435) and autoloader
// ammunition ("Its ammunition may explode if hit (see CARGO BAY)", l.399).
func (t ComponentType) explosive() bool {
	return t == MissileReloads || t == AutoloaderAmmunition
}

// crewStation reports whether crew can be assigned to a component of type t.
func (t ComponentType) crewStation() bool {
	return t == Bridge || t == Cockpit || t == Quarters
}
