import CFFmpeg

/// What a recording needs to know of the stream a packet source reads: the codec, the packets' time
/// base, whether each packet is a whole picture or H.264 NAL units (an RTSP camera's, split for
/// low-latency decoding, which a recording puts back together; a WebRTC camera's access units,
/// whose parameter sets come in band), and the demuxer's codec
/// parameters to start from (nil for the JPEG transports, whose pictures are bare JPEGs).
struct RecordedStream {
    enum Packets {
        case wholePictures
        case h264NALUnits
    }

    let codecID: AVCodecID
    let timeBase: AVRational
    let packets: Packets
    /// Valid while the packet source is open (the recorder copies what it keeps).
    let parameters: UnsafePointer<AVCodecParameters>?

    /// A camera that sends bare JPEGs stamped with their arrival (microseconds).
    static let arrivalTimedJPEG = RecordedStream(codecID: AV_CODEC_ID_MJPEG, timeBase: AVRational(num: 1, den: 1_000_000),
                                                 packets: .wholePictures, parameters: nil)
}
