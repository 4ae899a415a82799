import Testing

@testable import SurfaceKit

/// The mesh model: the identity grid, editing with renumbering, interpolation, the inverse, and
/// depth normalization.
@Suite struct ModelTests {
    @Test func identityGridHasRowMajorVerticesAndFaces() throws {
        let rows = 3, columns = 4
        let mesh = try MeshTransform.identity(rows: rows, columns: columns)
        #expect(mesh.vertices.count == (rows + 1) * (columns + 1))
        #expect(mesh.faces.count == rows * columns)
        for i in 0...rows {
            for j in 0...columns {
                let v = mesh.vertices[i * (columns + 1) + j]
                #expect(v.from == LayerPoint(Double(j) / Double(columns), Double(i) / Double(rows)))
                #expect(v.to == Point3D(v.from.x, v.from.y, 0))
            }
        }
        // Face (r, c): top-left, top-right, bottom-right, bottom-left.
        let face = mesh.faces[1 * columns + 2]
        let tl = 1 * (columns + 1) + 2
        #expect(face.indices == SIMD4(tl, tl + 1, tl + columns + 2, tl + columns + 1))
        try mesh.validate()
    }

    @Test func identityGridRejectsEmptyAndHugeRequests() {
        #expect(throws: MeshError.self) { try MeshTransform.identity(rows: 0, columns: 3) }
        #expect(throws: MeshError.self) { try MeshTransform.identity(rows: Int.max, columns: 2) }
    }

    @Test func removingAVertexRenumbersTheFaces() throws {
        var mesh = try MeshTransform.identity(rows: 1, columns: 1)
        // An unused vertex at index 0 shifts every face index by one.
        mesh = try MeshTransform(
            vertices: [MeshVertex(identityAt: LayerPoint(9, 9))] + mesh.vertices,
            faces: [MeshFace(1, 2, 4, 3)])
        try mesh.removeVertex(at: 0)
        #expect(mesh.faces[0].indices == SIMD4(0, 1, 3, 2))
        #expect(mesh.vertices.count == 4)
        try mesh.validate()
    }

    @Test func removingAVertexAFaceUsesIsAnError() throws {
        var mesh = try MeshTransform.identity(rows: 1, columns: 1)
        #expect {
            try mesh.removeVertex(at: 3)
        } throws: { error in
            (error as? MeshError)?.message.contains("faces[0]") == true
        }
        #expect(mesh.vertices.count == 4)
    }

    @Test func addReplaceAndRemoveCheckWhatTheyTouch() throws {
        var mesh = MeshTransform()
        for p in [LayerPoint(0, 0), LayerPoint(1, 0), LayerPoint(1, 1), LayerPoint(0, 1)] {
            try mesh.addVertex(MeshVertex(identityAt: p))
        }
        #expect(throws: MeshError.self) { try mesh.addFace(MeshFace(0, 1, 2, 4)) }
        #expect(throws: MeshError.self) { try mesh.addFace(MeshFace(0, 1, 1, 2)) }
        #expect(throws: MeshError.self) { try mesh.addFace(MeshFace(0, 1, 2, 3, weights: SIMD4(1, 0, 1, 1))) }
        #expect(throws: MeshError.self) { try mesh.addVertex(MeshVertex(from: LayerPoint(.nan, 0), to: .zero)) }
        try mesh.addFace(MeshFace(0, 1, 2, 3))
        try mesh.replaceVertex(at: 2, with: MeshVertex(from: LayerPoint(1, 1), to: Point3D(0.8, 0.9, 0.1)))
        #expect(mesh.vertices[2].to == Point3D(0.8, 0.9, 0.1))
        try mesh.replaceFace(at: 0, with: MeshFace(0, 1, 2, 3, weights: SIMD4(1, 2, 3, 4)))
        #expect(mesh.faces[0].weights == SIMD4(1, 2, 3, 4))
        #expect(throws: MeshError.self) { try mesh.replaceFace(at: 1, with: MeshFace(0, 1, 2, 3)) }
        try mesh.removeFace(at: 0)
        #expect(mesh.faces.isEmpty)
        try mesh.removeVertex(at: 3)
        #expect(mesh.vertices.count == 3)
    }

    @Test func mapVerticesSeesEachVertexWithItsIndex() throws {
        let mesh = try MeshTransform.identity(rows: 2, columns: 2)
        let mapped = try mesh.mappingVertices { v, i in
            MeshVertex(from: v.from, to: Point3D(v.to.x, v.to.y, Double(i)))
        }
        for (i, v) in mapped.vertices.enumerated() { #expect(v.to.z == Double(i)) }
        #expect(throws: MeshError.self) {
            try mesh.mappingVertices { v, _ in MeshVertex(from: v.from, to: Point3D(.infinity, 0, 0)) }
        }
    }

    @Test func interpolationBlendsFromToAndWeightsLinearly() throws {
        let a = try MeshTransform.identity(rows: 1, columns: 2)
        var b = a
        try b.mapVertices { v, i in
            MeshVertex(from: v.from + LayerPoint(0.1, 0), to: Point3D(v.to.x * 2, v.to.y, Double(i)))
        }
        try b.replaceFace(at: 1, with: MeshFace(indices: b.faces[1].indices, weights: SIMD4(3, 3, 3, 5)))
        let t = 0.25
        let m = try a.interpolated(to: b, fraction: t)
        for i in a.vertices.indices {
            let expectedFrom = a.vertices[i].from * (1 - t) + b.vertices[i].from * t
            let expectedTo = a.vertices[i].to * (1 - t) + b.vertices[i].to * t
            #expect(((m.vertices[i].from - expectedFrom) * (m.vertices[i].from - expectedFrom)).sum() < 1e-28)
            #expect(((m.vertices[i].to - expectedTo) * (m.vertices[i].to - expectedTo)).sum() < 1e-28)
        }
        #expect(m.faces[1].weights == SIMD4(1.5, 1.5, 1.5, 2))
    }

    @Test func incompatibleMeshesNameTheFirstDifference() throws {
        let a = try MeshTransform.identity(rows: 1, columns: 2)
        let b = try MeshTransform.identity(rows: 2, columns: 1)
        #expect { try a.interpolated(to: b, fraction: 0.5) } throws: { ($0 as? MeshError)?.path == "faces[0].indices" }
        let c = try MeshTransform.identity(rows: 2, columns: 2)
        #expect { try a.interpolated(to: c, fraction: 0.5) } throws: { ($0 as? MeshError)?.path == "vertices" }
        var d = a
        d.depthNormalization = .width
        #expect { try a.interpolated(to: d, fraction: 0.5) } throws: { ($0 as? MeshError)?.path == "depthNormalization" }
    }

    @Test func inverseOfAFlatMeshSwapsFromAndTo() throws {
        var mesh = try MeshTransform.identity(rows: 2, columns: 2)
        try mesh.replaceVertex(at: 4, with: MeshVertex(from: LayerPoint(0.5, 0.5), to: Point3D(0.6, 0.4, 0)))
        let inverse = try mesh.inverted()
        #expect(inverse.vertices[4].from == LayerPoint(0.6, 0.4))
        #expect(inverse.vertices[4].to == Point3D(0.5, 0.5, 0))
        #expect(try inverse.inverted() == mesh)
        try mesh.replaceVertex(at: 1, with: MeshVertex(from: LayerPoint(0.5, 0), to: Point3D(0.5, 0, 0.2)))
        #expect { try mesh.inverted() } throws: { ($0 as? MeshError)?.path == "vertices[1].to[2]" }
    }

    @Test(arguments: [
        (DepthNormalization.none, 1.0), (.width, 100), (.height, 200), (.min, 100), (.max, 200), (.average, 150),
    ])
    func depthNormalizationScalesOneUnitToTheFullSize(_ mode: DepthNormalization, _ points: Double) {
        // Core Animation: average of a 100 × 200 layer maps z = 1.5 to 225 points.
        #expect(mode.depthScale(for: SIMD2(100, 200)) == points)
        let geometry = LayerGeometry(layer: LayerProperties(size: SIMD2(100, 200)), depthNormalization: mode)
        #expect(geometry.pointsFromUnit(Point3D(1, 0.5, 1.5)) == Point3D(100, 100, 1.5 * points))
    }

    @Test func layerValidationNamesTheBadValue() {
        var layer = LayerProperties(size: SIMD2(0, 10))
        #expect { try layer.validate() } throws: { ($0 as? MeshError)?.path == "layer.size[0]" }
        layer = LayerProperties(
            transform: Transform3D(row1: SIMD4(.nan, 0, 0, 0), row2: SIMD4(0, 1, 0, 0), row3: SIMD4(0, 0, 1, 0), row4: SIMD4(0, 0, 0, 1)))
        #expect { try layer.validate() } throws: { ($0 as? MeshError)?.path == "layer.transform[0]" }
    }

    @Test func everyExampleIsAValidDocument() throws {
        for example in ExampleMesh.allCases {
            try example.document.validate()
        }
    }

    @Test func lapackFindsTheEigenvectorsOfAKnownMatrix() throws {
        // [[2, 1], [1, 2]] has eigenvalues 3 and 1 with eigenvectors (1, 1)/√2 and (1, −1)/√2.
        let pairs = try #require(Eigen.realLeftEigenpairs(of: [2, 1, 1, 2], n: 2))
        #expect(pairs.count == 2)
        #expect(abs(pairs[0].value - 3) < 1e-12 && abs(pairs[1].value - 1) < 1e-12)
        #expect(abs(abs(pairs[0].vector[0]) - 0.5.squareRoot()) < 1e-12)
        #expect(abs(pairs[0].vector[0] - pairs[0].vector[1]) < 1e-12)
        #expect(abs(pairs[1].vector[0] + pairs[1].vector[1]) < 1e-12)
    }

    @Test func regularBoundaryRingMatrixHasTheBSplineEigenvalues() throws {
        // A regular boundary vertex (2 faces) refines like the cubic B-spline: eigenvalues 1, ½, ½, ¼, …
        let pairs = try #require(Eigen.realLeftEigenpairs(of: LimitMask.boundaryRingMatrix(faces: 2), n: 6))
        #expect(abs(pairs[0].value - 1) < 1e-12)
        #expect(abs(pairs[1].value - 0.5) < 1e-12 && abs(pairs[2].value - 0.5) < 1e-12)
        // The limit-position mask is the left eigenvector of 1: (e₀ + 4v + e₂)/6 in ring order.
        let l = pairs[0].vector
        let scale = l[0] / (4.0 / 6)
        let expected = [4.0 / 6, 1.0 / 6, 0, 0, 0, 1.0 / 6]
        for k in 0..<6 { #expect(abs(l[k] / scale - expected[k]) < 1e-12) }
    }
}
