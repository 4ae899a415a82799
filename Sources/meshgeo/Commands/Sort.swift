import ArgumentParser
import MeshTessellate
import SurfaceKit

/// `meshgeo sort`: `tessellate --sort exact --space screen`, the triangles of a semi-transparent
/// layer in an order that draws correctly back to front.
struct Sort: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tessellate a mesh and write its screen-space triangles in exact back-to-front order.",
        discussion: """
            The same as 'tessellate --sort exact --space screen': triangles that overlap on screen are \
            ordered by a BSP tree and split where they intersect or overlap in a cycle, so drawing \
            them in order shows the nearest surface everywhere. Geometry at or behind the eye is \
            clipped. Split pieces are interpolated in points space and keep their control face.
            """)

    @OptionGroup var input: InputArgument
    @OptionGroup var output: OutputOption

    @OptionGroup var tessellation: TessellationArguments
    @OptionGroup var export: ExportArguments

    @Flag(help: "Print the number of pieces that splitting added on standard error.")
    var verbose = false

    func validate() throws {
        try export.checkFormat(output: output.output)
    }

    func run() throws {
        let name = InputFile.displayName(input.input)
        try reportingFailures(file: name) {
            let progress = ProgressLine("meshgeo sort")
            defer { progress.finish() }
            let texture = try export.loadTexture()
            let document = try InputFile.document(input.input)
            tessellation.warnIgnoredOptions(fileSteps: document.mesh.subdivisionSteps)
            let options = tessellation.options
            progress.stage("tessellating")
            let points = try Tessellator.tessellate(document, options: options, space: .points)
            progress.stage("sorting")
            let (mesh, statistics) = try PainterSorter.sorted(
                mesh: points, geometry: document.geometry, mode: .exact, space: .screen, maximumTriangles: tessellation.maxTriangles)
            progress.stage("writing")
            try export.write(mesh, texture: texture, layer: document.layer, to: output.output)
            progress.finish()
            if verbose {
                StandardError.write(
                    "sort: \(statistics.trianglesAfterClipping) triangles after clipping, \(statistics.addedPieces) pieces added by splitting, "
                        + "\(statistics.outputTriangles) written (\(statistics.overlapClusters) overlapping clusters, largest \(statistics.largestCluster); "
                        + "\(statistics.overlappingPairs) overlapping pairs\(statistics.depthRanked ? " among those close in depth" : ""), "
                        + "\(statistics.crossingPairs) crossing; "
                        + "\(statistics.splitGroups) groups split, largest \(statistics.largestSplitGroup))"
                )
            }
        }
    }
}
