//! Keyboard and mouse controls, from the seed demo: W/A/S/D move the camera, the mouse turns it (right
//! button held), arrows move the player's shape along X and Y, Q/E along Z, 1-4 switch its shape. Also
//! Space pause, +/- body count, G GPU/CPU, V wireframes, R collision response, H HUD, F12 screenshot; and the
//! debug renderer's: 5-9 overlays, N single step (paused), M next disagreement, [ / ] the picked body's
//! pairs, C copy pair, I inspect pair, comma / period / P step and play the inspector, F frame all,
//! Backspace drop the selection, O overlays for the picked body only; F1 (or ?, read from the typed character
//! by the window) the keys overlay.

use super::args::MAX_BODIES;
use super::overlays::Overlay;
use glam::Vec3;
use std::collections::HashSet;
use winit::keyboard::KeyCode;

/// A key press that changes something once (held keys move things, see [`Controls`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    TogglePause,
    MoreBodies,
    FewerBodies,
    ToggleNarrowPhase,
    ToggleHud,
    ToggleWireframe,
    ToggleResponse,
    Screenshot,
    /// Switch the player's shape to template 0-3 (cube, sphere, cone, cylinder).
    PlayerShape(usize),
    ToggleOverlay(Overlay),
    /// One frame forward while paused.
    Step,
    /// Fly the camera to the next pair the GPU and the CPU disagree on.
    NextDisagreement,
    /// The picked body's previous or next pair in its panel.
    PreviousPair,
    NextPair,
    /// Write the selected pair as a `query` line.
    CopyPair,
    /// Open the GJK/EPA inspector on the selected pair.
    Inspect,
    /// The inspector one step back or forward, or playing.
    InspectorBack,
    InspectorForward,
    InspectorPlay,
    /// Camera to see the whole box.
    FrameAll,
    /// Drop the picked body (and close the inspector).
    ClearSelection,
    /// Select one of the picked body's pairs (a click in its panel).
    SelectPair([u32; 2]),
    /// Show this step of the inspector (its slider).
    InspectorSeek(usize),
    /// Close the inspector.
    CloseInspector,
    /// Show or hide the keys overlay (F1 or ?).
    ToggleHelp,
    /// Overlays for the picked body's pairs only, or for every pair (O).
    TogglePickedOnly,
    Quit,
}

/// Which keys are held and whether the mouse is turning the camera.
#[derive(Default)]
pub struct Controls {
    held: HashSet<KeyCode>,
    /// Right mouse button held: mouse motion turns the camera.
    pub looking: bool,
}

impl Controls {
    /// Records a key change; returns the action of a fresh press.
    pub fn key(&mut self, code: KeyCode, pressed: bool, repeat: bool) -> Option<Action> {
        if !pressed {
            self.held.remove(&code);
            return None;
        }
        self.held.insert(code);
        if repeat {
            return None;
        }
        Some(match code {
            KeyCode::Space => Action::TogglePause,
            KeyCode::Equal | KeyCode::NumpadAdd => Action::MoreBodies,
            KeyCode::Minus | KeyCode::NumpadSubtract => Action::FewerBodies,
            KeyCode::KeyG => Action::ToggleNarrowPhase,
            KeyCode::KeyH => Action::ToggleHud,
            KeyCode::KeyV => Action::ToggleWireframe,
            KeyCode::KeyR => Action::ToggleResponse,
            KeyCode::F12 => Action::Screenshot,
            KeyCode::Digit1 => Action::PlayerShape(0),
            KeyCode::Digit2 => Action::PlayerShape(1),
            KeyCode::Digit3 => Action::PlayerShape(2),
            KeyCode::Digit4 => Action::PlayerShape(3),
            KeyCode::Digit5 => Action::ToggleOverlay(Overlay::Contacts),
            KeyCode::Digit6 => Action::ToggleOverlay(Overlay::Closest),
            KeyCode::Digit7 => Action::ToggleOverlay(Overlay::Aabbs),
            KeyCode::Digit8 => Action::ToggleOverlay(Overlay::Pairs),
            KeyCode::Digit9 => Action::ToggleOverlay(Overlay::Disagreements),
            KeyCode::KeyN => Action::Step,
            KeyCode::KeyM => Action::NextDisagreement,
            KeyCode::BracketLeft => Action::PreviousPair,
            KeyCode::BracketRight => Action::NextPair,
            KeyCode::KeyC => Action::CopyPair,
            KeyCode::KeyI => Action::Inspect,
            KeyCode::Comma => Action::InspectorBack,
            KeyCode::Period => Action::InspectorForward,
            KeyCode::KeyP => Action::InspectorPlay,
            KeyCode::KeyF => Action::FrameAll,
            KeyCode::Backspace => Action::ClearSelection,
            KeyCode::F1 => Action::ToggleHelp,
            KeyCode::KeyO => Action::TogglePickedOnly,
            KeyCode::Escape => Action::Quit,
            _ => return None,
        })
    }

    /// Forgets held keys (the window lost focus and will not see their release).
    pub fn release_all(&mut self) {
        self.held.clear();
        self.looking = false;
    }

    fn axis(&self, minus: KeyCode, plus: KeyCode) -> f32 {
        f32::from(self.held.contains(&plus)) - f32::from(self.held.contains(&minus))
    }

    /// Camera motion as (forward, right), each -1, 0 or 1.
    pub fn camera_motion(&self) -> (f32, f32) {
        (
            self.axis(KeyCode::KeyS, KeyCode::KeyW),
            self.axis(KeyCode::KeyA, KeyCode::KeyD),
        )
    }

    /// Player motion direction in world axes: arrows on X and Y, Q/E on Z.
    pub fn player_motion(&self) -> Vec3 {
        Vec3::new(
            self.axis(KeyCode::ArrowLeft, KeyCode::ArrowRight),
            self.axis(KeyCode::ArrowDown, KeyCode::ArrowUp),
            self.axis(KeyCode::KeyQ, KeyCode::KeyE),
        )
    }
}

/// The body count after pressing + or - (a quarter more or less, at least one body, at most `--bodies`'
/// limit).
pub fn next_body_count(count: usize, more: bool) -> usize {
    if more {
        (count + count.div_ceil(4)).max(count + 1).min(MAX_BODIES)
    } else {
        (count - count / 5)
            .saturating_sub(usize::from(count < 5))
            .max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_the_seed_demo_controls() {
        let mut c = Controls::default();
        assert_eq!(
            c.key(KeyCode::Digit3, true, false),
            Some(Action::PlayerShape(2))
        );
        assert_eq!(
            c.key(KeyCode::Space, true, false),
            Some(Action::TogglePause)
        );
        assert_eq!(
            c.key(KeyCode::Space, true, true),
            None,
            "repeats do not toggle again"
        );
        c.key(KeyCode::KeyW, true, false);
        c.key(KeyCode::KeyA, true, false);
        assert_eq!(c.camera_motion(), (1.0, -1.0));
        c.key(KeyCode::ArrowUp, true, false);
        c.key(KeyCode::KeyE, true, false);
        assert_eq!(c.player_motion(), Vec3::new(0.0, 1.0, 1.0));
        c.key(KeyCode::KeyE, false, false);
        assert_eq!(c.player_motion(), Vec3::Y);
        c.release_all();
        assert_eq!(c.camera_motion(), (0.0, 0.0));
        // The debug renderer's keys: every overlay has its digit, and the inspector its keys.
        for (i, overlay) in Overlay::ALL.iter().enumerate() {
            let code = [
                KeyCode::Digit5,
                KeyCode::Digit6,
                KeyCode::Digit7,
                KeyCode::Digit8,
                KeyCode::Digit9,
            ][i];
            assert_eq!(
                c.key(code, true, false),
                Some(Action::ToggleOverlay(*overlay))
            );
            assert_eq!(overlay.key(), char::from(b'5' + i as u8));
        }
        assert_eq!(c.key(KeyCode::KeyN, true, false), Some(Action::Step));
        assert_eq!(c.key(KeyCode::KeyI, true, false), Some(Action::Inspect));
        assert_eq!(
            c.key(KeyCode::Period, true, false),
            Some(Action::InspectorForward)
        );
        assert_eq!(c.key(KeyCode::F1, true, false), Some(Action::ToggleHelp));
        assert_eq!(
            c.key(KeyCode::KeyO, true, false),
            Some(Action::TogglePickedOnly)
        );
    }

    #[test]
    fn body_count_steps_stay_positive_and_move() {
        assert_eq!(next_body_count(2000, true), 2500);
        assert_eq!(next_body_count(2500, false), 2000);
        assert_eq!(next_body_count(1, false), 1);
        assert_eq!(next_body_count(1, true), 2);
        assert_eq!(next_body_count(MAX_BODIES - 1, true), MAX_BODIES);
        assert_eq!(next_body_count(MAX_BODIES, true), MAX_BODIES);
        assert!(next_body_count(3, false) < 3);
    }
}
