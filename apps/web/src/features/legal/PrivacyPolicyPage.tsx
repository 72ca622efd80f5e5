import { LegalPage } from './LegalPage';
import { privacyPolicySections } from './privacy-policy-sections';

export function PrivacyPolicyPage() {
  return <LegalPage title="Privacy policy" sections={privacyPolicySections} />;
}
