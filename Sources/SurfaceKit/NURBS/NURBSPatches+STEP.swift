public extension NURBSPatches {
    /// An ISO 10303-21 (STEP) file, application protocol AP214, holding every surface as a
    /// `B_SPLINE_SURFACE_WITH_KNOTS` / `RATIONAL_B_SPLINE_SURFACE` complex entity, each bounded by its
    /// four edge curves (the rational B-spline curves of its boundary control rows) in an
    /// `ADVANCED_FACE`, the faces in one `OPEN_SHELL` of a `SHELL_BASED_SURFACE_MODEL`.
    ///
    /// Lengths are points of the layer, written with the millimetre as the file's unit: one point is
    /// one millimetre in the file, so the numbers are the points-space values unchanged.
    func stepFile(_ info: CADFileInfo) -> [UInt8] {
        var writer = STEPWriter()
        writer.write(self, info: info)
        return Array(writer.text.utf8)
    }
}

/// Writes the entities of a STEP file, numbering them in order.
struct STEPWriter {
    var text = ""
    var data: [String] = []

    /// Appends an entity and returns its reference (`#n`).
    mutating func add(_ entity: String) -> String {
        data.append(entity)
        return "#\(data.count)"
    }

    static func string(_ s: String) -> String {
        var quoted = "'"
        for c in CADNumber.asciiName(s) {
            // An apostrophe is written twice, a backslash (the escape character) too.
            if c == "'" || c == "\\" { quoted.append(c) }
            quoted.append(c)
        }
        return quoted + "'"
    }

    static func list(_ items: [String]) -> String { "(" + items.joined(separator: ",") + ")" }

    mutating func write(_ patches: NURBSPatches, info: CADFileInfo) {
        let name = STEPWriter.string(info.name)
        let context = add("APPLICATION_CONTEXT('core data for automotive mechanical design processes')")
        _ = add("APPLICATION_PROTOCOL_DEFINITION('international standard','automotive_design',2000,\(context))")
        let productContext = add("PRODUCT_CONTEXT('',\(context),'mechanical')")
        let product = add("PRODUCT(\(name),\(name),'rational bicubic B-spline surfaces of a mesh transform',(\(productContext)))")
        let formation = add("PRODUCT_DEFINITION_FORMATION('','',\(product))")
        let definitionContext = add("PRODUCT_DEFINITION_CONTEXT('part definition',\(context),'design')")
        let definition = add("PRODUCT_DEFINITION('design','',\(formation),\(definitionContext))")
        let shape = add("PRODUCT_DEFINITION_SHAPE('','',\(definition))")
        let length = add("(LENGTH_UNIT()NAMED_UNIT(*)SI_UNIT(.MILLI.,.METRE.))")
        let angle = add("(NAMED_UNIT(*)PLANE_ANGLE_UNIT()SI_UNIT($,.RADIAN.))")
        let solidAngle = add("(NAMED_UNIT(*)SI_UNIT($,.STERADIAN.)SOLID_ANGLE_UNIT())")
        let uncertainty = add(
            "UNCERTAINTY_MEASURE_WITH_UNIT(LENGTH_MEASURE(1.0E-07),\(length),'distance_accuracy_value','confusion accuracy')")
        let representationContext = add(
            "(GEOMETRIC_REPRESENTATION_CONTEXT(3)GLOBAL_UNCERTAINTY_ASSIGNED_CONTEXT((\(uncertainty)))"
                + "GLOBAL_UNIT_ASSIGNED_CONTEXT((\(length),\(angle),\(solidAngle)))REPRESENTATION_CONTEXT('',''))")
        let origin = add("CARTESIAN_POINT('',(0.0,0.0,0.0))")
        let zAxis = add("DIRECTION('',(0.0,0.0,1.0))")
        let xAxis = add("DIRECTION('',(1.0,0.0,0.0))")
        let placement = add("AXIS2_PLACEMENT_3D('',\(origin),\(zAxis),\(xAxis))")
        var faces: [String] = []
        for surface in patches.surfaces { faces.append(face(surface)) }
        let shell = add("OPEN_SHELL('',\(STEPWriter.list(faces)))")
        let model = add("SHELL_BASED_SURFACE_MODEL('',(\(shell)))")
        let representation = add("MANIFOLD_SURFACE_SHAPE_REPRESENTATION(\(name),(\(model),\(placement)),\(representationContext))")
        _ = add("SHAPE_DEFINITION_REPRESENTATION(\(shape),\(representation))")

        text = "ISO-10303-21;\nHEADER;\n"
        text +=
            "FILE_DESCRIPTION(('rational bicubic B-spline surfaces of a mesh transform','lengths in layer points, 1 point written as 1 mm'),'2;1');\n"
        text += "FILE_NAME(\(STEPWriter.string(info.fileName)),'\(CADFileInfo.timestamp)',(''),(''),'meshgeo','meshgeo','');\n"
        text += "FILE_SCHEMA(('AUTOMOTIVE_DESIGN { 1 0 10303 214 1 1 1 1 }'));\nENDSEC;\nDATA;\n"
        for (k, entity) in data.enumerated() { text += "#\(k + 1)=\(entity);\n" }
        text += "ENDSEC;\nEND-ISO-10303-21;\n"
    }

    mutating func point(_ p: Point3D) -> String {
        add("CARTESIAN_POINT('',(\(CADNumber.real(p.x)),\(CADNumber.real(p.y)),\(CADNumber.real(p.z))))")
    }

    /// A rational cubic B-spline curve through these control points (references), weights and knots.
    mutating func curve(points: [String], weights: [Double], knots: [Double]) -> String {
        let (values, multiplicities) = CADNumber.knotsWithMultiplicities(knots)
        return add(
            "(BOUNDED_CURVE()B_SPLINE_CURVE(3,\(STEPWriter.list(points)),.UNSPECIFIED.,.F.,.F.)"
                + "B_SPLINE_CURVE_WITH_KNOTS(\(STEPWriter.list(multiplicities.map(String.init))),\(STEPWriter.list(values.map(CADNumber.real))),.UNSPECIFIED.)"
                + "CURVE()GEOMETRIC_REPRESENTATION_ITEM()RATIONAL_B_SPLINE_CURVE(\(STEPWriter.list(weights.map(CADNumber.real))))REPRESENTATION_ITEM(''))"
        )
    }

    /// The surface and its face, named `face N` after its control face (`grid` for a grid's one
    /// surface) and bounded by the loop (u0,v0) → (u1,v0) → (u1,v1) → (u0,v1), which
    /// runs counter-clockwise about the normal Su × Sv.
    mutating func face(_ s: NURBSSurface) -> String {
        let nu = s.countU, nv = s.countV
        // The control face a surface belongs to, for readers that map it back.
        let label = STEPWriter.string(s.face.map { "face \($0)" } ?? "grid")
        let points = s.controlPoints.map { point($0) }
        // STEP lists control points with the u index outermost.
        let grid = (0..<nu).map { j in STEPWriter.list((0..<nv).map { i in points[i * nu + j] }) }
        let weights = (0..<nu).map { j in STEPWriter.list((0..<nv).map { i in CADNumber.real(s.weights[i * nu + j]) }) }
        let (uValues, uMultiplicities) = CADNumber.knotsWithMultiplicities(s.knotsU)
        let (vValues, vMultiplicities) = CADNumber.knotsWithMultiplicities(s.knotsV)
        let surface = add(
            "(BOUNDED_SURFACE()B_SPLINE_SURFACE(3,3,\(STEPWriter.list(grid)),.UNSPECIFIED.,.F.,.F.,.F.)"
                + "B_SPLINE_SURFACE_WITH_KNOTS(\(STEPWriter.list(uMultiplicities.map(String.init))),\(STEPWriter.list(vMultiplicities.map(String.init))),"
                + "\(STEPWriter.list(uValues.map(CADNumber.real))),\(STEPWriter.list(vValues.map(CADNumber.real))),.UNSPECIFIED.)"
                + "GEOMETRIC_REPRESENTATION_ITEM()RATIONAL_B_SPLINE_SURFACE(\(STEPWriter.list(weights)))REPRESENTATION_ITEM(\(label))SURFACE())"
        )
        func row(_ i: Int) -> [Int] { (0..<nu).map { i * nu + $0 } }
        func column(_ j: Int) -> [Int] { (0..<nv).map { $0 * nu + j } }
        let corners = [0, nu - 1, nv * nu - 1, (nv - 1) * nu].map { add("VERTEX_POINT('',\(points[$0]))") }
        // (indices, knots, start corner, end corner, same sense as the loop)
        let sides: [([Int], [Double], Int, Int, Bool)] = [
            (row(0), s.knotsU, 0, 1, true), (column(nu - 1), s.knotsV, 1, 2, true),
            (row(nv - 1), s.knotsU, 3, 2, false), (column(0), s.knotsV, 0, 3, false),
        ]
        var edges: [String] = []
        for (indices, knots, start, end, sense) in sides {
            let c = curve(points: indices.map { points[$0] }, weights: indices.map { s.weights[$0] }, knots: knots)
            let edge = add("EDGE_CURVE('',\(corners[start]),\(corners[end]),\(c),.T.)")
            edges.append(add("ORIENTED_EDGE('',*,*,\(edge),\(sense ? ".T." : ".F."))"))
        }
        let loop = add("EDGE_LOOP('',\(STEPWriter.list(edges)))")
        let bound = add("FACE_OUTER_BOUND('',\(loop),.T.)")
        return add("ADVANCED_FACE(\(label),(\(bound)),\(surface),.T.)")
    }
}
