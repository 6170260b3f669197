#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The inverse and direct geodesic problems on an `Ellipsoid` (Geodesic.swift has the method and
// the public API; GeodesicSeries.swift the series and angle helpers).

// MARK: - The solvers

extension Ellipsoid {
    /// The inverse solution in the canonical sines and cosines of the azimuths (not normalised
    /// to unit length, but each pair with the right direction).
    struct InverseResult {
        var distance: Double
        var sinAzimuth1: Double, cosAzimuth1: Double
        var sinAzimuth2: Double, cosAzimuth2: Double
    }

    /// A3(ε).
    @inline(__always)
    func a3(_ eps: Double) -> Double {
        1 + eps * (a3.0 + eps * (a3.1 + eps * (a3.2 + eps * (a3.3 + eps * a3.4))))
    }

    /// C3l(ε), l = 1...5.
    @inline(__always)
    func c3(_ eps: Double) -> (Double, Double, Double, Double, Double) {
        let k = c3
        let e2 = eps * eps
        let e3 = e2 * eps
        return (
            eps * (k.c11 + eps * (k.c12 + eps * (k.c13 + eps * (k.c14 + eps * k.c15)))),
            e2 * (k.c22 + eps * (k.c23 + eps * (k.c24 + eps * k.c25))),
            e3 * (k.c33 + eps * (k.c34 + eps * k.c35)),
            e2 * e2 * (k.c44 + eps * k.c45),
            e3 * e2 * k.c55
        )
    }

    /// The distance s12 / b along the auxiliary sphere from σ1 to σ2 = σ1 + sig12:
    /// A1 (σ12 + B1(σ2) − B1(σ1)).
    @inline(__always)
    func distanceOverB(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
    ) -> Double {
        let c = Geodesic.c1(eps)
        let b12 = Geodesic.sineSeries(ssig2, csig2, c) - Geodesic.sineSeries(ssig1, csig1, c)
        return (1 + Geodesic.a1Minus1(eps)) * (sig12 + b12)
    }

    /// The reduced length m12 / b and the constant m0 = A1 − A2 of J(σ) = I1(σ) − I2(σ).
    @inline(__always)
    func reducedLengthOverB(
        eps: Double, sig12: Double, ssig1: Double, csig1: Double, dn1: Double,
        ssig2: Double, csig2: Double, dn2: Double
    ) -> (m12: Double, m0: Double) {
        let a1m1 = Geodesic.a1Minus1(eps), a2m1 = Geodesic.a2Minus1(eps)
        let c1 = Geodesic.c1(eps), c2 = Geodesic.c2(eps)
        let a1 = 1 + a1m1, a2 = 1 + a2m1
        // J(σ) = (A1 − A2) σ + Σ (A1 C1l − A2 C2l) sin 2lσ.
        let cj = Geodesic.Six(
            c1: a1 * c1.c1 - a2 * c2.c1, c2: a1 * c1.c2 - a2 * c2.c2, c3: a1 * c1.c3 - a2 * c2.c3,
            c4: a1 * c1.c4 - a2 * c2.c4, c5: a1 * c1.c5 - a2 * c2.c5, c6: a1 * c1.c6 - a2 * c2.c6)
        let m0 = a1m1 - a2m1
        let j12 = m0 * sig12 + (Geodesic.sineSeries(ssig2, csig2, cj) - Geodesic.sineSeries(ssig1, csig1, cj))
        // √(1 + k² sin²σ) cos σ1 sin σ2 − ... with √(1 + k² sin²σ) = √(1 + e'² sin²β) = dn.
        let m12 = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return (m12, m0)
    }

    /// sin and cos of the reduced latitude β of a latitude in degrees; cos β is kept at least
    /// `tiny`, so a pole behaves as a point a hair away from it with a defined longitude.
    @inline(__always)
    func reducedLatitude(_ lat: Double) -> (sin: Double, cos: Double) {
        var (s, c) = Geodesic.sinCos(degrees: lat)
        s *= axisRatio
        Geodesic.normalize(&s, &c)
        return (s, max(Geodesic.tiny, c))
    }

    /// The state of one evaluation of λ12(α1) in the Newton iteration.
    struct LongitudeMismatch {
        /// λ12(α1) minus the wanted λ12, radians.
        var value: Double
        var salp2: Double, calp2: Double
        var sig12: Double
        var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
        var eps: Double
    }

    /// λ12 reached by the geodesic leaving point 1 at azimuth (salp1, calp1) when it gets to the
    /// latitude of point 2, minus the wanted λ12 (given by its sine and cosine, so the difference
    /// keeps full precision near 180°). Points are canonical: β1 <= 0, |β2| <= |β1|, α1 in [0, π].
    @inline(__always)
    func longitudeMismatch(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double,
        salp1: Double, calp1 calp1In: Double, slam12: Double, clam12: Double
    ) -> LongitudeMismatch {
        var calp1 = calp1In
        // On the equator heading due north or south is the meridian; nudge it off the equator
        // so that the two cases below agree.
        if sbet1 == 0 && calp1 == 0 { calp1 = -Geodesic.tiny }
        // Clairaut: sin α0 = sin α1 cos β1.
        let salp0 = salp1 * cbet1
        let calp0 = Geodesic.hypotenuse(calp1, salp1 * sbet1)
        // tan β1 = tan σ1 cos α1, tan ω1 = sin α0 tan σ1.
        var ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        Geodesic.normalize(&ssig1, &csig1)
        // sin α2 = sin α0 / cos β2; cos α2 from cos²α2 cos²β2 = cos²α1 cos²β1 + cos²β2 − cos²β1,
        // with the difference of squares taken in the better-conditioned form.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2: Double
        if cbet2 != cbet1 || abs(sbet2) != -sbet1 {
            let change = cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2)
            let c = calp1 * cbet1
            calp2 = max(0, c * c + change).squareRoot() / cbet2
        } else {
            calp2 = abs(calp1)
        }
        var ssig2 = sbet2, csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        Geodesic.normalize(&ssig2, &csig2)
        // σ12 and ω12 in [0, π], by their sines and cosines.
        let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // ω12 − λ12(wanted) as one angle.
        let eta = atan2(somg12 * clam12 - comg12 * slam12, comg12 * clam12 + somg12 * slam12)
        let eps = Geodesic.expansionParameter(calp0 * calp0 * secondEccentricitySquared)
        let c3 = c3(eps)
        let b312 = Geodesic.sineSeries(ssig2, csig2, c3) - Geodesic.sineSeries(ssig1, csig1, c3)
        // λ12 = ω12 − f sin α0 A3 (σ12 + B3(σ2) − B3(σ1)).
        let domg12 = -flattening * a3(eps) * salp0 * (sig12 + b312)
        return LongitudeMismatch(
            value: eta + domg12, salp2: salp2, calp2: calp2, sig12: sig12,
            ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2, eps: eps)
    }

    /// dλ12/dα1 at the state `m` of `longitudeMismatch`, taken only when a Newton step needs it.
    @inline(__always)
    func mismatchDerivative(_ m: LongitudeMismatch, sbet1: Double, dn1: Double, cbet2: Double, dn2: Double) -> Double {
        if m.calp2 == 0 {
            // α2 = 90°: the limit of the formula below, dλ12/dα1 = −2 w1 / sin β1.
            return -2 * axisRatio * dn1 / sbet1
        }
        // dλ12/dα1 = m12 / (a cos α2 cos β2).
        let r = reducedLengthOverB(
            eps: m.eps, sig12: m.sig12, ssig1: m.ssig1, csig1: m.csig1, dn1: dn1,
            ssig2: m.ssig2, csig2: m.csig2, dn2: dn2)
        return r.m12 * axisRatio / (m.calp2 * cbet2)
    }

    /// The first estimate of α1, or the whole solution for very short lines.
    struct InverseStart {
        var salp1: Double, calp1: Double
        /// Set when the short-line estimate is already exact: σ12, α2 and the mean w.
        var solved: (sig12: Double, salp2: Double, calp2: Double, dnm: Double)?
    }

    func inverseStart(
        sbet1: Double, cbet1: Double, sbet2: Double, cbet2: Double,
        lam12: Double, slam12: Double, clam12: Double
    ) -> InverseStart {
        let f = flattening, n = thirdFlattening
        // β2 − β1 and β2 + β1.
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        // Short lines: ω12 ≈ λ12 / w with w = √(1 − e² cos²β) at the mean reduced latitude
        // (here w = (1 − f) √(1 + e'² sin²β)).
        let shortLine = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        var dnm = 1.0
        if shortLine {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            dnm = (1 + secondEccentricitySquared * sbetm2).squareRoot()
            let omg12 = lam12 / (axisRatio * dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }
        // The great circle on the auxiliary sphere: tan α1 = cos β2 sin ω12 /
        // (cos β1 sin β2 − sin β1 cos β2 cos ω12), the denominator in a form without
        // cancellation.
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = Geodesic.hypotenuse(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12
        if shortLine && ssig12 < shortArcLimit {
            // Really short: the spherical solution is the answer.
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            Geodesic.normalize(&salp2, &calp2)
            Geodesic.normalize(&salp1, &calp1)
            return InverseStart(
                salp1: salp1, calp1: calp1, solved: (atan2(ssig12, csig12), salp2, calp2, dnm))
        }
        if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * Double.pi * cbet1 * cbet1 {
            // Not nearly antipodal: the great circle is a good enough start.
        } else {
            // Nearly antipodal (σ12 within about 6|n|π cos²β1 of π). Scale λ12 − π and β1 + β2
            // by the size of the antipodal region and solve the astroid.
            let lam12x = atan2(-slam12, -clam12)  // λ12 − π, in [-π, 0]
            let x: Double, y: Double, lamScale: Double, betScale: Double
            if f >= 0 {
                // Oblate: the size of the region is f π cos β1 A3, with A3 taken for the
                // geodesic that grazes the antipode (sin α0 = cos β1, so k² = e'² sin²β1).
                let eps = Geodesic.expansionParameter(sbet1 * sbet1 * secondEccentricitySquared)
                lamScale = f * cbet1 * a3(eps) * Double.pi
                betScale = lamScale * cbet1
                x = lam12x / lamScale
                y = sbet12a / betScale
            } else {
                // Prolate: the roles of x and y swap; the scale comes from the reduced length of
                // the meridian through the antipode.
                let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
                let bet12a = atan2(sbet12a, cbet12a)
                let sig = Double.pi + bet12a
                let eps = thirdFlattening  // a meridian: k² = e'², ε = n
                let dn1 = (1 + secondEccentricitySquared * sbet1 * sbet1).squareRoot()
                let dn2 = (1 + secondEccentricitySquared * sbet2 * sbet2).squareRoot()
                let m = reducedLengthOverB(
                    eps: eps, sig12: sig, ssig1: sbet1, csig1: -cbet1, dn1: dn1,
                    ssig2: sbet2, csig2: cbet2, dn2: dn2)
                let xp = -1 + m.m12 / (cbet1 * cbet2 * m.m0 * Double.pi)
                betScale = xp < -0.01 ? sbet12a / xp : -f * cbet1 * cbet1 * Double.pi
                lamScale = betScale / cbet1
                x = xp
                y = lam12x / lamScale
            }
            let tol1 = 200 * Geodesic.epsilon
            let xThreshold = 1000 * Geodesic.sqrtEpsilon
            if y > -tol1 && x > -1 - xThreshold {
                // The astroid degenerates (y ≈ 0): the points are nearly on the equator.
                if f >= 0 {
                    salp1 = min(1, -x)
                    calp1 = -(1 - salp1 * salp1).squareRoot()
                } else {
                    calp1 = max(x > -tol1 ? 0 : -1, x)
                    salp1 = (1 - calp1 * calp1).squareRoot()
                }
            } else {
                // With k the astroid root, ω12 follows, and α1 from the sphere again (a better
                // start than the direct formula for α1 in terms of x, y and k).
                let k = Geodesic.astroid(x, y)
                let omg12a = lamScale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        if !(salp1 <= 0) {
            Geodesic.normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return InverseStart(salp1: salp1, calp1: calp1, solved: nil)
    }

    /// The inverse problem for raw degrees (latitudes in [-90, 90], longitudes finite).
    func inverse(lat1 latIn1: Double, lon1: Double, lat2 latIn2: Double, lon2: Double) -> InverseResult {
        // The longitude difference, exactly, made positive.
        var (lon12, lon12e) = Geodesic.angleDifference(lon1, lon2)
        var lonSign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonSign
        lon12e *= lonSign
        let lam12 = lon12 * Geodesic.radiansPerDegree
        let (slam12, clam12) = Geodesic.sinCos(degrees: lon12, plus: lon12e)
        // 180° − λ12 with the error term: how far the points are from facing meridians.
        let lon12Supplement = (180 - lon12) - lon12e

        // Canonical form: |lat1| >= |lat2|, lat1 <= 0, 0 <= lon12 <= 180. The signs undo it.
        var lat1 = Geodesic.rounded(latIn1), lat2 = Geodesic.rounded(latIn2)
        let swapped = abs(lat1) < abs(lat2)
        if swapped {
            lonSign = -lonSign
            swap(&lat1, &lat2)
        }
        let latSign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign

        let (sbet1, cbet1) = reducedLatitude(lat1)
        var (sbet2, cbet2) = reducedLatitude(lat2)
        // When |β2| = |β1| make it exactly so: the formula for cos α2 relies on the order.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2.sign == .minus ? sbet1 : -sbet1 }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + secondEccentricitySquared * sbet1 * sbet1).squareRoot()
        let dn2 = (1 + secondEccentricitySquared * sbet2 * sbet2).squareRoot()

        var s12 = Double.nan
        var salp1 = 0.0, calp1 = 1.0, salp2 = 0.0, calp2 = 1.0
        var solved = false

        if lat1 == -90 || slam12 == 0 {
            // Both points on one meridian (or point 1 at a pole): try the meridian, heading
            // towards point 2's longitude and arriving northwards.
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            let sig12 = atan2(max(0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
            // On a meridian α0 = 0, so k² = e'² and ε = n.
            let eps = thirdFlattening
            var s = distanceOverB(eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2)
            let m = reducedLengthOverB(
                eps: eps, sig12: sig12, ssig1: ssig1, csig1: csig1, dn1: dn1, ssig2: ssig2, csig2: csig2, dn2: dn2
            ).m12
            // The meridian is the shortest path unless it runs past the conjugate point (m12 < 0),
            // which only a long one can; a very short one may show a rounding-level m12 < 0.
            if sig12 < Geodesic.sqrtEpsilon || m >= 0 {
                if sig12 < 3 * Geodesic.tiny || (sig12 < Geodesic.epsilon && (s < 0 || m < 0)) { s = 0 }
                s12 = s * polarRadius
                solved = true
            }
        }

        if !solved && sbet1 == 0 && (flattening <= 0 || lon12Supplement >= flattening * 180) {
            // Both on the equator (|lat2| <= |lat1| = 0), and not so far apart that the shortest
            // path leaves it: for λ12 > (1 − f) 180° it goes towards a pole instead.
            salp1 = 1; calp1 = 0
            salp2 = 1; calp2 = 0
            s12 = equatorialRadius * lam12
            solved = true
        }

        if !solved {
            let start = inverseStart(
                sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2, lam12: lam12, slam12: slam12, clam12: clam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if let short = start.solved {
                s12 = short.sig12 * polarRadius * short.dnm
                salp2 = short.salp2
                calp2 = short.calp2
            } else {
                // Newton on α1, inside the bracket (α1a, α1b) of azimuths known to give λ12 too
                // small and too large; bisection when a step leaves it or stalls.
                var salp1a = Geodesic.tiny, calp1a = 1.0, salp1b = Geodesic.tiny, calp1b = -1.0
                var nearlyConverged = false, bracketClosed = false
                var step = 0
                var state: LongitudeMismatch
                while true {
                    state = longitudeMismatch(
                        sbet1: sbet1, cbet1: cbet1, sbet2: sbet2, cbet2: cbet2,
                        salp1: salp1, calp1: calp1, slam12: slam12, clam12: clam12)
                    let v = state.value
                    // Converged to round-off (the looser test after a Newton step that was
                    // already within 16 ulps), or the bracket is as small as it gets.
                    if bracketClosed || !(abs(v) >= (nearlyConverged ? 8 : 1) * Geodesic.epsilon)
                        || step == Geodesic.maximumSteps
                    {
                        break
                    }
                    // λ12 grows with α1; cot α1 falls with it.
                    if v > 0 && (step > Geodesic.newtonSteps || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (step > Geodesic.newtonSteps || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    step += 1
                    let derivative = step <= Geodesic.newtonSteps
                        ? mismatchDerivative(state, sbet1: sbet1, dn1: dn1, cbet2: cbet2, dn2: dn2) : 0
                    if derivative > 0 {
                        let dalp1 = -v / derivative
                        if abs(dalp1) < Double.pi {
                            let sd = sin(dalp1), cd = cos(dalp1)
                            let nsalp1 = salp1 * cd + calp1 * sd
                            if nsalp1 > 0 {
                                calp1 = calp1 * cd - salp1 * sd
                                salp1 = nsalp1
                                Geodesic.normalize(&salp1, &calp1)
                                nearlyConverged = abs(v) <= 16 * Geodesic.epsilon
                                continue
                            }
                        }
                    }
                    // Bisect (α1 stays in (0, π), where sin α1 > 0).
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    Geodesic.normalize(&salp1, &calp1)
                    nearlyConverged = false
                    // Done when the bracket cannot be split any further. (A fixed tolerance on
                    // sin and cos would stop too early where the geodesic nearly grazes the
                    // latitude of point 2, cos α1 → 0, and λ12 is very sensitive to α1.)
                    bracketClosed = (salp1 == salp1a && calp1 == calp1a) || (salp1 == salp1b && calp1 == calp1b)
                }
                s12 = polarRadius * distanceOverB(
                    eps: state.eps, sig12: state.sig12, ssig1: state.ssig1, csig1: state.csig1,
                    ssig2: state.ssig2, csig2: state.csig2)
                salp2 = state.salp2
                calp2 = state.calp2
            }
        }

        // Undo the canonical transformation.
        if swapped {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        let swapSign: Double = swapped ? -1 : 1
        salp1 *= swapSign * lonSign
        calp1 *= swapSign * latSign
        salp2 *= swapSign * lonSign
        calp2 *= swapSign * latSign
        return InverseResult(
            distance: 0 + s12, sinAzimuth1: salp1, cosAzimuth1: calp1, sinAzimuth2: salp2, cosAzimuth2: calp2)
    }

    /// The direct problem for raw degrees (latitude in [-90, 90]; longitude, azimuth and
    /// distance finite). Returns the end point (longitude in [-180, 180]) and azimuth in degrees.
    func direct(
        lat1: Double, lon1: Double, azimuth1: Double, distance s12: Double
    ) -> (latitude: Double, longitude: Double, azimuth2: Double) {
        let (salp1, calp1) = Geodesic.sinCos(degrees: Geodesic.rounded(Geodesic.normalized(azimuth1)))
        let (sbet1, cbet1) = reducedLatitude(Geodesic.rounded(lat1))
        // Clairaut, and σ1, ω1 at the first point.
        let salp0 = salp1 * cbet1
        let calp0 = Geodesic.hypotenuse(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        // Leaving the equator due east or west, σ1 = ω1 = 0.
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let comg1 = csig1
        Geodesic.normalize(&ssig1, &csig1)
        let k2 = calp0 * calp0 * secondEccentricitySquared
        let eps = Geodesic.expansionParameter(k2)
        let a1m1 = Geodesic.a1Minus1(eps)
        let c1 = Geodesic.c1(eps)
        let b11 = Geodesic.sineSeries(ssig1, csig1, c1)
        // τ1 = σ1 + B1(σ1), the distance variable (eq. (7) over b A1).
        let s = sin(b11), c = cos(b11)
        let stau1 = ssig1 * c + csig1 * s
        let ctau1 = csig1 * c - ssig1 * s
        // τ12 = s12 / (b A1); σ2 = τ2 + B1′(τ2), with B1′(τ1) = −B1(σ1) (eqs. (20)–(21)).
        let unitLength = polarRadius * (1 + a1m1)  // s per unit of τ
        var tau12 = s12 / unitLength
        if !tau12.isFinite {
            // A length beyond the largest double in units of a tiny ellipsoid's b: the geodesic
            // repeats in τ with period 2π, so travel the remainder of the last circuit. (At such
            // a length no digit of the end point is meaningful; this keeps it finite.)
            tau12 = remainder(s12, 2 * Double.pi * unitLength) / unitLength
        }
        let st = sin(tau12), ct = cos(tau12)
        let b12 = -Geodesic.sineSeries(stau1 * ct + ctau1 * st, ctau1 * ct - stau1 * st, Geodesic.c1Prime(eps))
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = sin(sig12), csig12 = cos(sig12)
        if abs(flattening) > 0.01 {
            // The reverted series loses accuracy for a more eccentric ellipsoid: one Newton
            // step on s(σ12) = s12, ds/dσ = b √(1 + k² sin²σ2), restores it.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12
            let csig2 = csig1 * csig12 - ssig1 * ssig12
            let b1 = Geodesic.sineSeries(ssig2, csig2, c1)
            let serr = (1 + a1m1) * (sig12 + (b1 - b11)) - s12 / polarRadius
            sig12 -= serr / (1 + k2 * ssig2 * ssig2).squareRoot()
            ssig12 = sin(sig12)
            csig12 = cos(sig12)
        }
        // Point 2 on the auxiliary sphere.
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = Geodesic.hypotenuse(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // At a pole: stand a hair away, as the inverse does.
            cbet2 = Geodesic.tiny
            csig2 = Geodesic.tiny
        }
        let salp2 = salp0, calp2 = calp0 * csig2
        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let c3 = c3(eps)
        let b31 = Geodesic.sineSeries(ssig1, csig1, c3)
        let b32 = Geodesic.sineSeries(ssig2, csig2, c3)
        let lam12 = omg12 - flattening * a3(eps) * salp0 * (sig12 + (b32 - b31))
        let lon12 = lam12 / Geodesic.radiansPerDegree
        let lon2 = Geodesic.normalized(Geodesic.normalized(lon1) + Geodesic.normalized(lon12))
        let lat2 = Geodesic.atan2Degrees(sbet2, axisRatio * cbet2)
        return (lat2, lon2, Geodesic.atan2Degrees(salp2, calp2))
    }
}
