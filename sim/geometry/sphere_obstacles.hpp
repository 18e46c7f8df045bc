// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// Immobile hard-sphere obstacles on a cubic lattice (Roberts et al. 2009: "mapping a sphere
// with the diameter of the obstruction onto the lattice and setting each site located
// within the sphere as reflective"), placed by random sequential addition.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/geometry/lattice_frame.hpp"

namespace cf::geometry {

struct SphereClass {
    float radius = 0.0f;          // in the frame's length unit (nm)
    float volumeFraction = 0.0f;  // of the host sites, measured on the lattice
    std::string label;            // names the class in messages
};

struct Sphere {
    std::array<float, 3> centre{0.0f, 0.0f, 0.0f};
    float radius = 0.0f;
};

// The Philox stream (sim/core/rng.hpp) of placeSphereObstacles(); models keyed by the same
// seed should use other stream numbers.
inline constexpr std::uint32_t kSphereObstacleStream = 0x4f425354u;  // "OBST"

// A site belongs to a sphere when the distance from the sphere's centre to the site's
// centre is at most the radius (on periodic axes the nearest image counts; a centre within
// 1e-3 sites of a site centre counts as on it). Throws GeometryError for a sphere as wide
// as the lattice along a periodic axis (it would overlap its own image) or with a radius
// that is not positive and finite.
//
// Random sequential addition, largest radius first (ties in the given order): a candidate
// centre is a uniform point in the cube of a host site drawn uniformly from the sites of
// type `hostType`. It is kept when it overlaps no sphere placed before (hard spheres: centre
// distance >= sum of radii, nearest image on periodic axes), covers at least one site, and
// all its sites are host sites not yet covered (and, on closed axes, inside the lattice).
// Continuous centres make a sphere cover its volume in sites on average, so even spheres
// smaller than a site fill their fraction, and the packing jams where hard spheres do
// (random sequential addition of one size: near 38 % of the volume), not earlier. Class c
// stops at the sphere count whose covered sites come nearest to volumeFraction x (number of
// host sites), counting each sphere's actual sites. Draws are
// Philox(seed, kSphereObstacleStream)(attempt, class index as given, 0 and 1): the same
// inputs give the same spheres on any machine.
//
// When 100000 draws in a row fail before a class reaches its target, throws GeometryError
// naming the class, the fraction reached and the target. Also throws for a `types` size
// that is not the frame's site count, fractions outside [0, 1] or summing above 1, or no
// host sites.
std::vector<Sphere> placeSphereObstacles(const LatticeFrame& frame,
                                         const std::vector<SphereClass>& classes,
                                         const std::vector<std::uint8_t>& types,
                                         std::uint8_t hostType, std::array<bool, 3> periodic,
                                         std::uint32_t seed);

// Sets every site within one of the spheres (the rule above) to `obstacleType`, wrapping on
// periodic axes and clipping at the lattice's faces on the others.
void rasterizeSpheres(const LatticeFrame& frame, const std::vector<Sphere>& spheres,
                      std::array<bool, 3> periodic, std::vector<std::uint8_t>& types,
                      std::uint8_t obstacleType);

// The crowders of an E. coli cytoplasm at 30 % obstructed volume: the size classes of
// Ridgway et al. 2008 (Biophys J 94:3748) as Roberts et al. 2009 used them, radii in nm,
// largest first. Their fractions sum to 0.30.
std::vector<SphereClass> invivoCrowdingClasses();

}  // namespace cf::geometry
