import CFFmpeg
import CPixels

/// What a frame's YUV numbers mean: the matrix that turns them into RGB and whether they span the
/// full 0–255 range or the video range (16–235). swscale assumes BT.601 video range unless told,
/// which tints every BT.709 picture — most HD cameras' — (pure red comes out as 232, 0, 1).
struct ColourDetails: Equatable {
    /// One of swscale's `SWS_CS_*` matrices.
    let matrix: Int32
    let fullRange: Bool

    /// The frame's own tags; an untagged frame gets what players assume (mpv's rule): BT.709 for HD
    /// (1280 wide or more than 576 lines), BT.601 below. JPEG-style formats are full range.
    init(of frame: UnsafePointer<AVFrame>) {
        switch frame.pointee.colorspace {
        case AVCOL_SPC_BT709: matrix = SWS_CS_ITU709
        case AVCOL_SPC_BT470BG, AVCOL_SPC_SMPTE170M: matrix = SWS_CS_ITU601
        case AVCOL_SPC_SMPTE240M: matrix = SWS_CS_SMPTE240M
        case AVCOL_SPC_FCC: matrix = SWS_CS_FCC
        case AVCOL_SPC_BT2020_NCL, AVCOL_SPC_BT2020_CL: matrix = SWS_CS_BT2020
        default: matrix = frame.pointee.width >= 1280 || frame.pointee.height > 576 ? SWS_CS_ITU709 : SWS_CS_ITU601
        }
        switch AVPixelFormat(frame.pointee.format) {
        case AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUVJ440P, AV_PIX_FMT_YUVJ411P:
            fullRange = true
        default:
            fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG
        }
    }

    /// The matrix in the form of `lw_yuv420_to_bgra`, from its luma weights Kr and Kb.
    var fixedPointMatrix: LwYuvMatrix {
        let (red, blue): (Double, Double) = switch matrix {
        case SWS_CS_ITU709: (0.2126, 0.0722)
        case SWS_CS_SMPTE240M: (0.212, 0.087)
        case SWS_CS_FCC: (0.30, 0.11)
        case SWS_CS_BT2020: (0.2627, 0.0593)
        default: (0.299, 0.114)
        }
        var fixed = LwYuvMatrix()
        lw_yuv_matrix_init(&fixed, red, blue, fullRange ? 1 : 0)
        return fixed
    }

    /// Tells the YUV → RGB `context` about these details, unless it already has them (setting them
    /// rebuilds its tables).
    func apply(to context: OpaquePointer) {
        let wanted = sws_getCoefficients(matrix)
        var table: UnsafeMutablePointer<Int32>?, outputTable: UnsafeMutablePointer<Int32>?
        var sourceRange: Int32 = 0, outputRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        if sws_getColorspaceDetails(context, &table, &sourceRange, &outputTable, &outputRange,
                                    &brightness, &contrast, &saturation) >= 0,
           let table, let wanted, (0..<4).allSatisfy({ table[$0] == wanted[$0] }),
           sourceRange == (fullRange ? 1 : 0), outputRange == 1 {
            return
        }
        // A context that can't take them (no YUV → RGB step) keeps converting as it did.
        _ = sws_setColorspaceDetails(context, wanted, fullRange ? 1 : 0, sws_getCoefficients(SWS_CS_DEFAULT), 1,
                                     0, 1 << 16, 1 << 16)
    }
}
