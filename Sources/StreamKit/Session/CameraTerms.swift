import Foundation

/// How a camera's failures are worded when the camera's printer family knows better than its URL:
/// a Bambu printer's camera is reached with the LAN access code once LAN Only Liveview is on, so its
/// messages speak of what the user sets on the printer, not of a URL's user name and password. The
/// family chooses them (PrinterKit); StreamKit only words failures with them.
public struct CameraTerms: Hashable, Sendable {
    /// The credentials were rejected.
    public var authRejected: String
    /// The connection was refused.
    public var refused: String
    /// Nothing answered in time.
    public var timeout: String
    /// A view's title when the credentials were rejected, its detail, and its button's title when
    /// the view can edit them.
    public var rejectedTitle: String
    public var rejectedDetail: String
    public var editCredentials: String

    public init(authRejected: String, refused: String, timeout: String, rejectedTitle: String, rejectedDetail: String,
                editCredentials: String) {
        self.authRejected = authRejected
        self.refused = refused
        self.timeout = timeout
        self.rejectedTitle = rejectedTitle
        self.rejectedDetail = rejectedDetail
        self.editCredentials = editCredentials
    }
}
