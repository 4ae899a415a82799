import ArgumentParser
import MeshTessellate
import SurfaceKit

struct Tessellate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tessellate a mesh transform's surface into triangles and export them.",
        discussion: """
            Steps 0 draws the control mesh; steps n splits every face into 2^n × 2^n sub-quads whose \
            corners lie on the limit surface. Positions and normals are written in the chosen space; \
            texture coordinates are the layer points (from).
            """)

    @OptionGroup var input: InputArgument
    @OptionGroup var output: OutputOption

    @OptionGroup var tessellation: TessellationArguments

    @Option(help: "The space of the output positions and normals: unit, points or screen.")
    var space: CoordinateSpace = .unit

    @OptionGroup var export: ExportArguments

    @Option(
        help:
            "Draw order for semi-transparent layers: none (tessellation order), depth (by centroid depth, as Core Animation) or exact (splitting triangles only where no order of whole ones is right; bsp is an older name for it)."
    )
    var sort: PainterSorter.Mode = .none

    @Flag(help: "With --sort, print the number of pieces that splitting added on standard error.")
    var verbose = false

    @Flag(help: "First fit the control points so that the surface passes through the vertices (as 'meshgeo fit'), then tessellate.")
    var fit = false

    func validate() throws {
        try export.checkFormat(output: output.output)
    }

    func run() throws {
        let name = InputFile.displayName(input.input)
        try reportingFailures(file: name) {
            let progress = ProgressLine("meshgeo tessellate")
            defer { progress.finish() }
            let texture = try export.loadTexture()
            progress.stage("reading")
            var document = try InputFile.document(input.input)
            tessellation.warnIgnoredOptions(fileSteps: document.mesh.subdivisionSteps)
            if verbose, sort == .none { Warning.write("--verbose is ignored: it reports on --sort depth or bsp") }
            if fit {
                progress.stage("fitting")
                document.mesh = try document.mesh.fitted()
            }
            progress.stage("tessellating")
            let options = tessellation.options
            let mesh: TriangleMesh
            if sort == .none {
                mesh = try Tessellator.tessellate(document, options: options, space: space)
            } else {
                let points = try Tessellator.tessellate(document, options: options, space: .points)
                progress.stage("sorting")
                let sorted = try PainterSorter.sorted(
                    mesh: points, geometry: document.geometry, mode: sort, space: space, maximumTriangles: tessellation.maxTriangles)
                mesh = sorted.mesh
                if verbose {
                    progress.finish()
                    StandardError.write(
                        "sort: \(sorted.statistics.addedPieces) pieces added by splitting, \(sorted.statistics.outputTriangles) triangles written"
                    )
                }
            }
            progress.stage("writing")
            try export.write(mesh, texture: texture, layer: document.layer, to: output.output)
        }
    }
}
