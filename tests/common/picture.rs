//! A screenshot the demo wrote, read back for the tests that check what it shows by counting pixels.

use std::path::Path;

/// An RGBA picture, rows top to bottom.
pub struct Picture {
    pub width: usize,
    pub height: usize,
    pub rgba: Vec<u8>,
}

impl Picture {
    pub fn load(path: &Path) -> Self {
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut rgba = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut rgba).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgba, "{}", path.display());
        Self {
            width: info.width as usize,
            height: info.height as usize,
            rgba,
        }
    }

    /// Pixels in the rectangle (fractions of the picture) that satisfy `test`.
    pub fn count(&self, x: (f32, f32), y: (f32, f32), test: impl Fn([u8; 3]) -> bool) -> usize {
        let col = |f: f32| (f * self.width as f32) as usize;
        let row = |f: f32| (f * self.height as f32) as usize;
        let mut n = 0;
        for r in row(y.0)..row(y.1) {
            for c in col(x.0)..col(x.1) {
                let i = 4 * (r * self.width + c);
                n += usize::from(test([self.rgba[i], self.rgba[i + 1], self.rgba[i + 2]]));
            }
        }
        n
    }
}
