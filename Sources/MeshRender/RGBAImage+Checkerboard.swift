public extension RGBAImage {
    /// The default layer content: a checkerboard of `cells` squares along the shorter side, light
    /// and dark grey, with the top-left cell tinted red so a picture shows which way is up.
    static func checkerboard(width: Int, height: Int, cells: Int = 8) throws(ImageError) -> RGBAImage {
        var image = try RGBAImage(width: width, height: height)
        let side = Swift.max(1, Swift.min(width, height) / Swift.max(1, cells))
        let light = RGBA8(236, 236, 236), dark = RGBA8(150, 158, 170)
        let marker = RGBA8(214, 84, 72)
        for y in 0..<height {
            for x in 0..<width {
                let cx = x / side, cy = y / side
                let colour = cx == 0 && cy == 0 ? marker : ((cx + cy) % 2 == 0 ? light : dark)
                image.setPixel(x: x, y: y, to: colour)
            }
        }
        return image
    }
}
