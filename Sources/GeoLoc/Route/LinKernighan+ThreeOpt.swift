/// The first level's other kind of move in the chained Lin-Kernighan search: a sequential 3-opt
/// move whose middle step alone would split the tour (segment insertion, "or-3opt").
extension LinKernighan {
    /// With the tour read from t1 towards t2 as t1 [t2 ... t3] t4 ...: t1 - t2 removed, t2 - t3
    /// added, t3 - t4 removed (which leaves [t2 ... t3] a cycle), t4 - t5 added with t5 in that
    /// cycle, t5 - t6 removed (t6 next to t5 in it) and t6 - t1 closing. With t6 after t5 the
    /// two parts [t2 ... t5] and [t6 ... t3] change places; with t6 before t5 each is reversed
    /// in place. Any closing that pays is taken at once; otherwise, at the first level, the
    /// `breadth3` best by gain so far go a level deeper from t6, as the chain of 2-opt moves
    /// does (deeper levels only close). Returns true after an improving chain has been applied.
    mutating func threeOptStep(_ level: Int, _ g: Double, _ t1: Int32, _ t2: Int32) -> Bool {
        let forward = succ(t1) == t2
        @inline(__always) func nx(_ a: Int32) -> Int32 { forward ? succ(a) : pred(a) }
        @inline(__always) func pv(_ a: Int32) -> Int32 { forward ? pred(a) : succ(a) }
        let p2 = Int(pos[Int(t2)])
        /// Positions from t2 along the reading direction.
        @inline(__always) func from2(_ a: Int32) -> Int {
            let d = forward ? Int(pos[Int(a)]) - p2 : p2 - Int(pos[Int(a)])
            return d < 0 ? d + n : d
        }
        let t2Next = nx(t2)
        // The first level's best moves so far, by gain so far: ends in `threeEnds` (four a move),
        // gains in `threeGains` (deeper levels keep none, so they never overwrite them).
        var found = 0
        let breadth = level == 1 ? Self.breadth3 : 0
        let ends = threeEnds, gains = threeGains
        let base2 = Int(t2) * k
        for a in 0..<k {
            let t3 = neighbours[base2 + a]
            if t3 < 0 { break }
            let g1 = g - neighbourCost[base2 + a]
            if g1 <= eps { continue }
            if t3 == t1 || t3 == t2Next { continue }
            let t4 = nx(t3)
            if t4 == t1 || costs.fixed(t3, t4) || isAdded(t3, t4) { continue }
            let g2Base = g1 + c(t3, t4)
            let span = from2(t3)
            let base4 = Int(t4) * k
            for b in 0..<k {
                let t5 = neighbours[base4 + b]
                if t5 < 0 { break }
                let g2 = g2Base - neighbourCost[base4 + b]
                if g2 <= eps || t5 == t3 || from2(t5) > span { continue }
                for side in 0..<2 {
                    if side == 1 && t5 == t2 { continue }
                    let t6 = side == 0 ? nx(t5) : pv(t5)
                    if costs.fixed(t5, t6) || isAdded(t5, t6) { continue }
                    let open = g2 + c(t5, t6)
                    let gain = open - c(t1, t6)
                    if gain > eps {
                        _ = applyThreeOpt(t1, t2, t3, t4, t5, t6, after: side == 0)
                        touchAll(t3, t4, t5, t6)
                        gained += gain
                        return true
                    }
                    guard let slot = Self.keep(open, gains, ends, stride: 4, found: &found,
                                               breadth: breadth) else { continue }
                    ends[4 * slot] = t3
                    ends[4 * slot + 1] = t4
                    ends[4 * slot + 2] = t5
                    ends[4 * slot + 3] = t6
                }
            }
        }
        for choice in 0..<found {
            let t3 = ends[4 * choice], t4 = ends[4 * choice + 1]
            let t5 = ends[4 * choice + 2], t6 = ends[4 * choice + 3], open = gains[choice]
            let moves = applyThreeOpt(t1, t2, t3, t4, t5, t6, after: nx(t5) == t6)
            markAdded(t2, t3)
            markAdded(t4, t5)
            touchAll(t3, t4, t5, t6)
            if step(level + 2, open, t1, t6) { return true }
            unmarkLast()
            unmarkLast()
            for _ in 0..<4 { touched.removeLast() }
            for _ in 0..<moves { undoLast() }
        }
        return false
    }

    /// Applies the move of `threeOptStep` as 2-opt moves (logged); returns how many reversals.
    private mutating func applyThreeOpt(_ t1: Int32, _ t2: Int32, _ t3: Int32, _ t4: Int32, _ t5: Int32,
                                        _ t6: Int32, after: Bool) -> Int {
        let before = log.count
        if after {
            // t1 [t2 .. t5] [t6 .. t3] t4  ->  t1 [t6 .. t3] [t2 .. t5] t4.
            twoOptMove(t1, t2, t3, t4)  // t1 [t3 .. t6] [t5 .. t2] t4
            if t6 != t3 { twoOptMove(t1, t3, t6, t5) }  // t1 [t6 .. t3] [t5 .. t2] t4
            if t5 != t2 { twoOptMove(t3, t5, t2, t4) }  // t1 [t6 .. t3] [t2 .. t5] t4
        } else {
            // t1 [t2 .. t6] [t5 .. t3] t4  ->  t1 [t6 .. t2] [t3 .. t5] t4.
            twoOptMove(t1, t2, t6, t5)  // t1 [t6 .. t2] [t5 .. t3] t4
            twoOptMove(t2, t5, t3, t4)  // t1 [t6 .. t2] [t3 .. t5] t4
        }
        return log.count - before
    }
}
