public extension NURBSPatches {
    /// An IGES 5.3 file holding every surface as a rational B-spline surface (entity 128, form 0),
    /// in the fixed 80-column format with its start, global, directory, parameter and terminate
    /// sections. Lengths are points of the layer, written with millimetres as the unit (units flag
    /// 2): one point is one millimetre in the file, so the numbers are the points-space values.
    func igesFile(_ info: CADFileInfo) -> [UInt8] {
        var writer = IGESWriter()
        writer.write(self, info: info)
        return Array(writer.lines.joined(separator: "\n").utf8) + [10]
    }
}

/// Lays out an IGES file's records: 72 columns of data, the section letter, a sequence number.
struct IGESWriter {
    var lines: [String] = []

    /// Columns 1–72 (padded), the section letter in 73, the sequence number in 74–80.
    static func record(_ data: String, section: Character, sequence: Int) -> String {
        pad(data, 72) + String(section) + rightAligned(sequence, 7)
    }

    static func pad(_ s: String, _ width: Int) -> String { s + String(repeating: " ", count: max(0, width - s.count)) }

    static func rightAligned(_ value: Int, _ width: Int) -> String { rightAligned("\(value)", width) }

    static func rightAligned(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }

    static func hollerith(_ s: String) -> String { "\(s.count)H\(s)" }

    /// Parameters packed into lines of at most `width` columns, never splitting one; the last ends
    /// with the record delimiter.
    static func pack(_ parameters: [String], width: Int) -> [String] {
        var result: [String] = []
        var line = ""
        for (k, p) in parameters.enumerated() {
            let token = p + (k == parameters.count - 1 ? ";" : ",")
            if !line.isEmpty && line.count + token.count > width {
                result.append(line)
                line = ""
            }
            line += token
        }
        if !line.isEmpty { result.append(line) }
        return result
    }

    mutating func write(_ patches: NURBSPatches, info: CADFileInfo) {
        let name = CADNumber.asciiName(info.name), fileName = CADNumber.asciiName(info.fileName)
        let start = [
            "Rational bicubic B-spline surfaces of the mesh transform \(name), written by meshgeo.",
            "Lengths are layer points, written as millimetres (1 point = 1 mm in this file).",
        ]
        var sLines: [String] = []
        for text in start {
            var rest = Substring(text)
            while !rest.isEmpty {
                sLines.append(String(rest.prefix(72)))
                rest = rest.dropFirst(72)
            }
        }
        let largest = patches.surfaces.flatMap(\.controlPoints).reduce(0.0) { max($0, abs($1.x), abs($1.y), abs($1.z)) }
        let date = "19700101.000000"
        let global: [String] = [
            "1H,", "1H;", IGESWriter.hollerith(name), IGESWriter.hollerith(fileName), IGESWriter.hollerith("meshgeo"),
            IGESWriter.hollerith("meshgeo"), "32", "38", "6", "308", "15", IGESWriter.hollerith(name), "1.0", "2",
            IGESWriter.hollerith("MM"), "1", "1.0", IGESWriter.hollerith(date), "1.0E-07", CADNumber.real(largest), "", "",
            "11", "0", IGESWriter.hollerith(date),
        ]
        let gLines = IGESWriter.pack(global, width: 72)
        var dLines: [String] = [], pLines: [String] = []
        for (index, surface) in patches.surfaces.enumerated() {
            let directory = 2 * index + 1
            let parameters = IGESWriter.pack(IGESWriter.parameters(surface), width: 64)
            let first = pLines.count + 1
            for text in parameters {
                pLines.append(IGESWriter.pad(text, 64) + " " + IGESWriter.rightAligned(directory, 7))
            }
            let fields1 = ["128", "\(first)", "0", "0", "0", "0", "0", "0", "00000000"]
            // Entity label and subscript: FACE and the control face's index (GRID 0 for a grid).
            let fields2 = [
                "128", "0", "0", "\(parameters.count)", "0", "", "", surface.face == nil ? "GRID" : "FACE", "\(surface.face ?? 0)",
            ]
            dLines.append(fields1.map { IGESWriter.rightAligned($0, 8) }.joined())
            dLines.append(fields2.map { IGESWriter.rightAligned($0, 8) }.joined())
        }
        for (k, line) in sLines.enumerated() { lines.append(IGESWriter.record(line, section: "S", sequence: k + 1)) }
        for (k, line) in gLines.enumerated() { lines.append(IGESWriter.record(line, section: "G", sequence: k + 1)) }
        for (k, line) in dLines.enumerated() { lines.append(IGESWriter.record(line, section: "D", sequence: k + 1)) }
        for (k, line) in pLines.enumerated() { lines.append(IGESWriter.record(line, section: "P", sequence: k + 1)) }
        let counts =
            "S" + IGESWriter.rightAligned(sLines.count, 7) + "G" + IGESWriter.rightAligned(gLines.count, 7)
            + "D" + IGESWriter.rightAligned(dLines.count, 7) + "P" + IGESWriter.rightAligned(pLines.count, 7)
        lines.append(IGESWriter.record(counts, section: "T", sequence: 1))
    }

    /// Entity 128's parameters: K1, K2, M1, M2, PROP1–5 (open, open, rational, non-periodic,
    /// non-periodic), the knots, the weights and the control points (u index fastest), the domain.
    static func parameters(_ s: NURBSSurface) -> [String] {
        var p = ["128", "\(s.countU - 1)", "\(s.countV - 1)", "3", "3", "0", "0", "0", "0", "0"]
        p += s.knotsU.map(CADNumber.real)
        p += s.knotsV.map(CADNumber.real)
        p += s.weights.map(CADNumber.real)
        for point in s.controlPoints { p += [point.x, point.y, point.z].map(CADNumber.real) }
        p += [s.domainU.lowerBound, s.domainU.upperBound, s.domainV.lowerBound, s.domainV.upperBound].map(CADNumber.real)
        return p
    }
}
