/// One conversion of a decoded picture a session's views want: the part of the picture in sight
/// (`region`, and its `pixels` in this stream), the size to convert it to and the pixel order.
struct ConversionTarget: Equatable {
    let region: PictureRegion
    let pixels: PixelRect
    let size: PixelSize
    let order: PixelOrder
}
