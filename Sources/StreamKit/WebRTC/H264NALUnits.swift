/// Reads the little of an unparsed H.264 packet (Annex B NAL units, as FFmpeg's RTP depacketiser
/// and `H264NALAssembler` hand them out) that the skipped parser used to tell: whether it holds a
/// slice, whether that slice begins a picture, and whether the picture is an IDR.
enum H264NALUnits {
    /// What a packet's first slice says about its picture.
    struct Slice: Equatable {
        /// The slice is the picture's first (first_mb_in_slice = 0).
        let startsPicture: Bool
        /// The picture is an IDR (NAL unit type 5): a keyframe.
        let isIDR: Bool
    }

    private static let nonIDRSlice: UInt8 = 1, idrSlice: UInt8 = 5

    /// The first slice in `data`, nil when it holds none (parameter sets, SEI, delimiters). The
    /// slice header begins with first_mb_in_slice as an Exp-Golomb code: 0 is the single bit "1".
    static func firstSlice(_ data: UnsafePointer<UInt8>?, count: Int) -> Slice? {
        guard let data, count >= 5 else { return nil }
        var zeros = 0
        var index = 0
        while index < count - 2 {
            let byte = data[index]
            index += 1
            if byte == 0 { zeros += 1; continue }
            defer { zeros = 0 }
            guard byte == 1, zeros >= 2 else { continue }
            // A start code: `index` is the NAL header, the slice header follows.
            let type = data[index] & 0x1F
            if type == nonIDRSlice || type == idrSlice {
                return Slice(startsPicture: data[index + 1] & 0x80 != 0, isIDR: type == idrSlice)
            }
        }
        return nil
    }
}
